/**
 * What only development needs: the tools of the svc CLI and the schematics, and PGlite, which runs the app when
 * `DATABASE_URL` is unset (production refuses that). `@svc/nest` does not depend on them; an app declares them as
 * devDependencies (versions: `@svc/nest`'s own devDependencies), so a production install (`npm ci --omit=dev`)
 * leaves them all out.
 */
export const SVC_DEV_DEPENDENCIES = [
  '@angular-devkit/core',
  '@angular-devkit/schematics',
  '@electric-sql/pglite',
  'commander',
  'typescript',
] as const;
