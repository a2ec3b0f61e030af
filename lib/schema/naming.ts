/**
 * Name conversions shared by the normalizer, the schematics and the runtime.
 * Every generated name (route, table, file, property, foreign key) comes from here,
 * so that the CLI and the runtime can never disagree on one.
 */
import pluralizeWord from 'pluralize';

/**
 * Splits an identifier into words at `_`, `-`, spaces and case changes, keeping acronyms
 * together: `LoanItem` → `Loan Item`, `HTTPRequest` → `HTTP Request`, `loan_items` → `loan items`.
 */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter((word) => word.length > 0);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** `LoanItem`, `loan-item`, `loan_item` → `loanItem`. */
export function toCamelCase(name: string): string {
  const pascal = toPascalCase(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `loanItem`, `loan-item`, `loan_item` → `LoanItem`. */
export function toPascalCase(name: string): string {
  return splitWords(name).map(capitalize).join('');
}

/** `LoanItem` → `loan-item`. */
export function toKebabCase(name: string): string {
  return splitWords(name)
    .map((word) => word.toLowerCase())
    .join('-');
}

/** `LoanItem` → `loan_item`. */
export function toSnakeCase(name: string): string {
  return splitWords(name)
    .map((word) => word.toLowerCase())
    .join('_');
}

/**
 * English plural of the last word, case kept: `LoanItem` → `LoanItems`, `Category` → `Categories`,
 * `Person` → `People`. Only the last word changes, so compound names never get a plural in the middle.
 */
export function pluralize(name: string): string {
  const match = /^(.*?)([A-Z]?[a-z0-9]*|[A-Z0-9]+)$/.exec(name);
  const head = match?.[1] ?? '';
  const last = match?.[2] || name;
  return head + pluralizeWord.plural(last);
}

/** The URL segment of an entity's routes: kebab-case plural (`LoanItem` → `loan-items`). */
export function toRouteName(entityName: string): string {
  return toKebabCase(pluralize(entityName));
}

/** The table of an entity: snake_case plural (`LoanItem` → `loan_items`). */
export function toTableName(entityName: string): string {
  return toSnakeCase(pluralize(entityName));
}

/** The foreign key column of a many-to-one relation: `project` → `projectId`. */
export function toForeignKeyName(relationName: string): string {
  return `${relationName}Id`;
}
