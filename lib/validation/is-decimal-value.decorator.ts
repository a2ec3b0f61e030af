import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

export interface DecimalOptions {
  /** Total significant digits. */
  precision: number;
  /** Digits after the decimal point. */
  scale: number;
}

const DECIMAL = /^-?(\d+)(?:\.(\d+))?$/;

/** Whether `value` (a JSON number or a numeric string) fits `numeric(precision, scale)`. */
export function fitsDecimal(value: unknown, { precision, scale }: DecimalOptions): boolean {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (typeof text !== 'string') return false;
  const match = DECIMAL.exec(text);
  if (!match) return false;
  const integerDigits = match[1].replace(/^0+(?=\d)/, '').length;
  const fractionDigits = (match[2] ?? '').length;
  return fractionDigits <= scale && integerDigits <= precision - scale;
}

/**
 * A decimal number given as a JSON number or a numeric string (`"12.50"`), with
 * at most `precision - scale` digits before the point and `scale` after it.
 */
export function IsDecimalValue(decimal: DecimalOptions, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isDecimalValue',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      constraints: [decimal],
      validator: {
        validate: (value: unknown) => fitsDecimal(value, decimal),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must be a decimal number with at most ${decimal.precision - decimal.scale} digits before the point and ${decimal.scale} after it`,
      },
    });
  };
}
