/*
 * A JSON field edited as text: what is typed is parsed on every change; while it does not parse,
 * the form holds an `InvalidJson` that the field's validator reports, so the form cannot be saved.
 */
import { type ReactElement, useEffect, useState } from 'react';
import { FieldTitle, InputHelperText, required, ResettableTextField, useInput, type Validator } from 'react-admin';

class InvalidJson {
  constructor(readonly message: string) {}
}

const show = (value: unknown): string => (value === undefined || value === null || value instanceof InvalidJson ? '' : JSON.stringify(value, null, 2));

function read(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return new InvalidJson(`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const validJson: Validator = (value: unknown) => (value instanceof InvalidJson ? value.message : undefined);

export interface JsonInputProps {
  readonly source: string;
  readonly label?: string;
  /** Whether the field may be left empty (stored as null). */
  readonly nullable?: boolean;
}

export function JsonInput({ source, label, nullable = false }: JsonInputProps): ReactElement {
  const { id, field, fieldState, isRequired } = useInput({ source, validate: nullable ? validJson : [required(), validJson] });
  const [text, setText] = useState(() => show(field.value));
  // A value set from outside (form reset, record loaded) replaces the text unless the text already means it.
  useEffect(() => {
    if (field.value instanceof InvalidJson) return;
    setText((current) => (JSON.stringify(read(current)) === JSON.stringify(field.value ?? null) ? current : show(field.value)));
  }, [field.value]);
  return (
    <ResettableTextField
      id={id}
      name={field.name}
      label={<FieldTitle label={label} source={source} isRequired={isRequired} />}
      multiline
      minRows={3}
      resettable={nullable}
      error={fieldState.invalid}
      helperText={<InputHelperText error={fieldState.error?.message} />}
      value={text}
      onChange={(eventOrValue: unknown) => {
        const next = typeof eventOrValue === 'string' ? eventOrValue : ((eventOrValue as { target?: { value?: string } }).target?.value ?? '');
        setText(next);
        field.onChange(read(next));
      }}
      onBlur={field.onBlur}
    />
  );
}
