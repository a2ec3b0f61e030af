import { SVCRC_DOCS_SECTIONS, type SvcrcDocsSection } from './svcrc-docs-sections';

/** Markers around the generated reference in docs/svcrc.md. */
export const SVCRC_REFERENCE_START = '<!-- svcrc-reference:start -->';
export const SVCRC_REFERENCE_END = '<!-- svcrc-reference:end -->';

interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
}

function resolve(root: SchemaNode, node: SchemaNode): SchemaNode {
  if (!node.$ref) return node;
  const name = node.$ref.split('/').pop()!;
  return resolve(root, root.definitions?.[name] ?? {});
}

/** The object node at a reader's path (`entities[].fields[]`), following `$ref`s. */
function objectAt(root: SchemaNode, path: string): SchemaNode {
  let node = root;
  for (const part of path.split('.').filter(Boolean)) {
    const isArray = part.endsWith('[]');
    node = resolve(root, node.properties?.[isArray ? part.slice(0, -2) : part] ?? {});
    if (isArray) node = resolve(root, node.items ?? {});
  }
  return node;
}

function code(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

function typeOf(root: SchemaNode, node: SchemaNode, childPath: string): string {
  if (node.const !== undefined) return code(node.const);
  if (node.enum) return node.enum.map(code).join(' \\| ');
  const section = SVCRC_DOCS_SECTIONS.find((candidate) => candidate.path === childPath || candidate.path === `${childPath}[]`);
  if (section) return `${node.type === 'array' ? 'array of objects' : 'object'}: [below](#${section.anchor})`;
  const types = node.type === undefined ? ['any'] : typeof node.type === 'string' ? [node.type] : [...node.type];
  const rendered = types.map((type) => {
    if (type !== 'array') return type;
    const items = resolve(root, node.items ?? {});
    return items.enum ? `array of ${items.enum.map(code).join(' \\| ')}` : `array of ${String(items.type ?? 'any')}`;
  });
  const bounds: string[] = [];
  if (node.minimum !== undefined) bounds.push(`≥ ${node.minimum}`);
  if (node.maximum !== undefined) bounds.push(`≤ ${node.maximum}`);
  if (node.pattern !== undefined) bounds.push(`\`/${node.pattern}/\``);
  return [rendered.join(' or '), ...bounds].join(', ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function renderSection(root: SchemaNode, section: SvcrcDocsSection): string {
  const node = objectAt(root, section.path);
  const required = new Set(node.required ?? []);
  const rows = Object.entries(node.properties ?? {}).map(([key, raw]) => {
    const child = resolve(root, raw);
    const childPath = section.path ? `${section.path}.${key}` : key;
    const fallback = required.has(key) ? 'required' : '';
    const defaultValue = child.default !== undefined ? code(child.default) : fallback;
    return `| \`${key}\` | ${typeOf(root, child, childPath)} | ${defaultValue} | ${cell(child.description ?? '')} |`;
  });
  const intro = node.description ? `${node.description}\n\n` : '';
  return `## ${section.title}\n\n${intro}| Key | Type | Default | Meaning |\n|---|---|---|---|\n${rows.join('\n')}`;
}

/** The reference of every `.svcrc` key, from the descriptions in `schemas/svcrc.schema.json`. */
export function renderSvcrcReference(schema: object): string {
  return SVCRC_DOCS_SECTIONS.map((section) => renderSection(schema as SchemaNode, section)).join('\n\n');
}

/** `page` with the text between its markers replaced by the current reference. */
export function withSvcrcReference(page: string, schema: object): string {
  const start = page.indexOf(SVCRC_REFERENCE_START);
  const end = page.indexOf(SVCRC_REFERENCE_END);
  if (start === -1 || end < start) throw new Error(`the page has no ${SVCRC_REFERENCE_START} … ${SVCRC_REFERENCE_END} markers`);
  return `${page.slice(0, start + SVCRC_REFERENCE_START.length)}\n${renderSvcrcReference(schema)}\n${page.slice(end)}`;
}
