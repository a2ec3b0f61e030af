/** The section of docs/cli.md that documents each command, shown at the end of its `--help`. */
export const CLI_DOCS_PAGE = 'docs/cli.md';

const SECTION_OF_FIRST_WORD: Readonly<Record<string, string>> = {
  schema: 'svc-schema-validate',
  login: 'svc-login-svc-logout-svc-whoami',
  logout: 'svc-login-svc-logout-svc-whoami',
  whoami: 'svc-login-svc-logout-svc-whoami',
};

/** `docs/cli.md#svc-migrate` for `['migrate', 'generate']`; the page itself for the program. */
export function commandDocsLink(path: readonly string[]): string {
  if (path.length === 0) return CLI_DOCS_PAGE;
  return `${CLI_DOCS_PAGE}#${SECTION_OF_FIRST_WORD[path[0]] ?? `svc-${path[0]}`}`;
}

/** The line `--help` ends with. */
export function docsHelpText(path: readonly string[]): string {
  return `\nDocs: ${commandDocsLink(path)} (in the @svc/nest package: node_modules/@svc/nest/${commandDocsLink(path)})`;
}
