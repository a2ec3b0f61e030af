/** The sections of docs/svcrc.md, one per object of the `.svcrc` JSON Schema, and the section explaining a key. */
export interface SvcrcDocsSection {
  /** The key path as users read it: `entities[].fields[]`. Empty for the top level. */
  readonly path: string;
  /** The section's heading in docs/svcrc.md. */
  readonly title: string;
  /** GitHub's anchor of that heading. */
  readonly anchor: string;
}

export const SVCRC_DOCS_PAGE = 'docs/svcrc.md';

/** Deepest first, so that the longest matching path names the section. */
export const SVCRC_DOCS_SECTIONS: readonly SvcrcDocsSection[] = [
  { path: '', title: 'Top level', anchor: 'top-level' },
  { path: 'auth', title: '`auth`', anchor: 'auth' },
  { path: 'auth.loginThrottle', title: '`auth.loginThrottle`', anchor: 'authloginthrottle' },
  { path: 'entities[]', title: 'Entity: `entities[]`', anchor: 'entity-entities' },
  { path: 'entities[].fields[]', title: 'Field: `entities[].fields[]`', anchor: 'field-entitiesfields' },
  { path: 'entities[].scopeOptions', title: '`entities[].scopeOptions`', anchor: 'entitiesscopeoptions' },
  { path: 'entities[].routes', title: '`entities[].routes`', anchor: 'entitiesroutes' },
  { path: 'relationships[]', title: 'Relationship: `relationships[]`', anchor: 'relationship-relationships' },
  { path: 'api', title: '`api`', anchor: 'api' },
  { path: 'api.cors', title: '`api.cors`', anchor: 'apicors' },
  { path: 'api.pagination', title: '`api.pagination`', anchor: 'apipagination' },
  { path: 'api.concurrency', title: '`api.concurrency`', anchor: 'apiconcurrency' },
  { path: 'api.realtime', title: '`api.realtime`', anchor: 'apirealtime' },
  { path: 'api.rateLimit', title: '`api.rateLimit`', anchor: 'apiratelimit' },
  { path: 'database', title: '`database`', anchor: 'database' },
  { path: 'database.pool', title: '`database.pool`', anchor: 'databasepool' },
];

/** `entities[3].fields[0].type` → `entities[].fields[].type`. */
function genericPath(problemPath: string): string {
  return problemPath.replace(/\[\d+\]/g, '[]');
}

/** The section of docs/svcrc.md that explains the key at `problemPath` (a problem's path), as `docs/svcrc.md#anchor`. */
export function svcrcDocsLink(problemPath: string): string {
  const path = genericPath(problemPath);
  let best = SVCRC_DOCS_SECTIONS[0];
  for (const section of SVCRC_DOCS_SECTIONS) {
    const covers = section.path === '' || path === section.path || path.startsWith(`${section.path}.`) || path.startsWith(`${section.path}[`);
    if (covers && section.path.length >= best.path.length) best = section;
  }
  return `${SVCRC_DOCS_PAGE}#${best.anchor}`;
}
