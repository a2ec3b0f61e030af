/**
 * The one reader of `.svcrc`: JSON syntax, then the JSON Schema, then semantic checks, every
 * problem reported at once; the normalized model only when there is none.
 */
import { checkSvcrc } from './check-svcrc';
import { childPath, parseJsonText } from './json-text';
import { normalizeSvcrc } from './normalize-svcrc';
import { readRawSvcrc } from './read-raw-svcrc';
import type { RawSvcrc } from './raw-svcrc.types';
import type { SvcrcProblem, SvcrcResult } from './svcrc.errors';
import { checkJsonSchema } from './svcrc-json-schema';

/** A parse result plus the file as written, for tools that report on invalid files too. */
export interface SvcrcAnalysis {
  readonly result: SvcrcResult;
  /** The lenient typed view of the file; `null` when it is not JSON. */
  readonly raw: RawSvcrc | null;
}

function uniqueProblems(problems: readonly SvcrcProblem[]): SvcrcProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.path}\n${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Parses `.svcrc` text and tells what it contains, valid or not. */
export function analyzeSvcrc(text: string): SvcrcAnalysis {
  const json = parseJsonText(text);
  if (!json.ok) {
    const message = `invalid JSON at line ${json.line}, column ${json.column}: ${json.message}`;
    return { result: { ok: false, problems: [{ path: '', message }] }, raw: null };
  }
  const duplicates = json.duplicateKeys.map(({ objectPath, key }) => ({
    path: childPath(objectPath, key),
    message: `duplicate key ${JSON.stringify(key)}: only the last one would be used`,
  }));
  return analyzeValue(json.value, duplicates);
}

function analyzeValue(value: unknown, earlier: readonly SvcrcProblem[]): SvcrcAnalysis {
  const structural = checkJsonSchema(value);
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const raw = isObject ? readRawSvcrc(value) : null;
  const semantic = raw ? checkSvcrc(raw) : [];
  const problems = uniqueProblems([...earlier, ...structural, ...semantic]);
  if (problems.length > 0 || raw === null) return { result: { ok: false, problems }, raw };
  return { result: { ok: true, model: normalizeSvcrc(raw) }, raw };
}

/** The same checks and normalization as `parseSvcrc()`, on a `.svcrc` already parsed (the generated `svcSchema`). */
export function parseSvcrcValue(value: unknown): SvcrcResult {
  return analyzeValue(value, []).result;
}

/** Parses `.svcrc` text: the normalized model, or every problem found. */
export function parseSvcrc(text: string): SvcrcResult {
  return analyzeSvcrc(text).result;
}
