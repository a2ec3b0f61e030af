export * from './model';
export {
  pluralize,
  toCamelCase,
  toForeignKeyName,
  toKebabCase,
  toPascalCase,
  toRouteName,
  toSnakeCase,
  toTableName,
} from './naming';
export { SvcrcError, formatProblemPath, type SvcrcProblem, type SvcrcResult } from './svcrc.errors';
export { analyzeSvcrc, parseSvcrc, type SvcrcAnalysis } from './parse-svcrc';
export { SVCRC_FILE, loadSvcrc, loadSvcrcOrThrow, readSvcrcFile } from './load-svcrc';
export { SVCRC_DEFAULTS } from './normalize-svcrc';
export { SVCRC_JSON_SCHEMA, SVCRC_JSON_SCHEMA_PATH } from './svcrc-json-schema';
export { summarizeModel, summarizeRaw, type SvcrcSummary } from './summarize-svcrc';
export type * from './raw-svcrc.types';
