/**
 * The app shell of the admin: `src/generated/admin.tsx` (refreshed on every run) and the files created once
 * and then owned by the team (package.json, Vite and TypeScript settings, index.html, main.tsx, App.tsx and
 * one override file per resource).
 */
import type { EntityModel, ServiceModel } from '../../lib/schema/model';
import { adminEntities, componentPrefix, humanize, recordRepresentation } from './admin-entities';
import { adminViews } from './admin-resource.emitter';

/** Versions the generated app is written and tested against (the repository's own dev dependencies). */
const DEPENDENCIES = {
  '@casl/ability': '^6.8.1',
  // The account pages use Material UI and react-router directly, as react-admin's own docs do.
  '@mui/material': '^9.5.0',
  // The providers import ra-core's types; react-admin brings it, the app names it so it never depends on hoisting.
  'ra-core': '~5.15',
  'ra-data-nestjsx-crud': '~1.4',
  react: '^19.3.1',
  'react-admin': '~5.15',
  'react-dom': '^19.3.1',
  'react-router': '^7.18.6',
};
const DEV_DEPENDENCIES = {
  '@types/react': '^19.3.3',
  '@types/react-dom': '^19.3.0',
  '@vitejs/plugin-react': '~6.3',
  typescript: '~6.0.3',
  vite: '~8.3',
};

/** The scripts of the admin app's package.json. */
export const ADMIN_SCRIPTS = { dev: 'vite', build: 'tsc --noEmit -p . && vite build', preview: 'vite preview' } as const;

/**
 * How the admin authenticates. `.svcrc` has no cookie-only session mode (the `svc_session` cookie is asked for
 * per login), so the admin always sends the access token as `Authorization: Bearer`, which works on the same
 * origin and across origins alike.
 */
export function adminAuthMode(_model: ServiceModel): 'bearer' | 'cookie' {
  return 'bearer';
}

/** File stem of an entity's generated views and its override file: `book-copy`. */
export const resourceFile = (entity: EntityModel): string => entity.fileName;

export function emitAdminShell(model: ServiceModel): string {
  const entities = adminEntities(model);
  const logins = Boolean(model.auth?.userEntity);
  const imports = entities
    .filter((entity) => adminViews(entity).length > 0)
    .map((entity) => `import { ${adminViews(entity).map((view) => `${componentPrefix(entity)}${view}`).join(', ')} } from '../resources/${resourceFile(entity)}';`);
  const resources = entities.map((entity) => {
    const props = adminViews(entity).map((view) => ` ${view.toLowerCase()}={${componentPrefix(entity)}${view}}`);
    const label = humanize(entity.route.replace(/-/g, '_'));
    return `        <Resource name=${JSON.stringify(entity.route)}${props.join('')} recordRepresentation=${JSON.stringify(recordRepresentation(entity))} options={{ label: ${JSON.stringify(label)} }} />`;
  });
  return [
    "/// <reference types=\"vite/client\" />",
    "import { type ReactNode, useMemo } from 'react';",
    ...(logins
      ? [
          "import { Route } from 'react-router';",
          "import { Admin, CustomRoutes, Resource } from 'react-admin';",
          "import { SvcAccountLayout } from './account/account-layout';",
          "import { SvcLoginPage } from './account/login-page';",
          "import { PASSWORD_PAGE_PATH, SvcPasswordPage } from './account/password-page';",
        ]
      : ["import { Admin, Resource } from 'react-admin';"]),
    "import { createSvcProviders } from './providers';",
    "import { svcResourceEntities } from './schema';",
    ...imports,
    '',
    '/** The API the admin talks to: `VITE_SVC_API_URL` when set (dev server, another host), else the origin that serves the admin. */',
    'export function svcApiUrl(): string {',
    '  const configured: unknown = import.meta.env.VITE_SVC_API_URL;',
    "  return typeof configured === 'string' && configured !== '' ? configured.replace(/\\/+$/, '') : window.location.origin;",
    '}',
    '',
    'export interface SvcAdminProps {',
    '  readonly apiUrl?: string;',
    '  /** More `<Resource>`s or custom routes of your own. */',
    '  readonly children?: ReactNode;',
    '}',
    '',
    '/** The admin of every entity with HTTP routes: one `<Resource>` each. */',
    'export function SvcAdmin({ apiUrl, children }: SvcAdminProps) {',
    '  const url = apiUrl ?? svcApiUrl();',
    `  const { dataProvider${logins ? ', authProvider' : ''} } = useMemo(() => createSvcProviders({ apiUrl: url, auth: '${adminAuthMode(model)}', entities: svcResourceEntities }), [url]);`,
    '  return (',
    // Without a user entity the API has no login route: the admin then asks for no login either.
    `    <Admin dataProvider={dataProvider}${logins ? ' authProvider={authProvider} loginPage={SvcLoginPage} layout={SvcAccountLayout}' : ''} disableTelemetry>`,
    ...resources,
    ...(logins
      ? ['      <CustomRoutes>', '        <Route path={PASSWORD_PAGE_PATH} element={<SvcPasswordPage />} />', '      </CustomRoutes>']
      : []),
    '      {children}',
    '    </Admin>',
    '  );',
    '}',
    '',
  ].join('\n');
}

/** `src/resources/<entity>.tsx`: created once; every view of the entity passes through it. */
export function emitResourceOverride(entity: EntityModel): string {
  const name = componentPrefix(entity);
  const first = adminViews(entity)[0] ?? 'List';
  return [
    `// The views of ${name}. Created by \`svc generate --admin\` and then yours: it is never overwritten.`,
    '// Everything generated for the entity is re-exported here, and the admin imports it from here. To replace a view,',
    '// export your own under the same name; it takes precedence over the generated one:',
    '//',
    `//   export function ${name}${first}() { ... }`,
    `//   export { ${name}${first} } from './${resourceFile(entity)}-${first.toLowerCase()}';`,
    `export * from '../generated/resources/${resourceFile(entity)}';`,
    '',
  ].join('\n');
}

/** The files created once, then the team's: path → content. */
export function emitTeamShell(model: ServiceModel): Map<string, string> {
  const files = new Map<string, string>();
  const packageJson = {
    name: 'svc-admin',
    private: true,
    version: '0.0.0',
    type: 'module',
    scripts: ADMIN_SCRIPTS,
    dependencies: DEPENDENCIES,
    devDependencies: DEV_DEPENDENCIES,
  };
  files.set('package.json', `${JSON.stringify(packageJson, null, 2)}\n`);
  files.set(
    'vite.config.ts',
    [
      "import react from '@vitejs/plugin-react';",
      "import { defineConfig } from 'vite';",
      '',
      "// base './': the built app works under any path, such as /_admin on the API. react-admin with Material UI",
      '// makes one chunk of about 2 MB (530 kB gzipped): expected for an admin, so no warning for it.',
      "export default defineConfig({ base: './', plugins: [react()], build: { chunkSizeWarningLimit: 2500 } });",
      '',
    ].join('\n'),
  );
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      module: 'ESNext',
      moduleResolution: 'bundler',
      jsx: 'react-jsx',
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      isolatedModules: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['vite/client'],
    },
    include: ['src', 'vite.config.ts'],
  };
  files.set('tsconfig.json', `${JSON.stringify(tsconfig, null, 2)}\n`);
  files.set(
    'index.html',
    [
      '<!doctype html>',
      '<html lang="en">',
      '  <head>',
      '    <meta charset="UTF-8" />',
      '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />',
      '    <title>Admin</title>',
      '  </head>',
      '  <body>',
      '    <div id="root"></div>',
      '    <script type="module" src="./src/main.tsx"></script>',
      '  </body>',
      '</html>',
      '',
    ].join('\n'),
  );
  files.set(
    'src/main.tsx',
    [
      "import { StrictMode } from 'react';",
      "import { createRoot } from 'react-dom/client';",
      "import { App } from './App';",
      '',
      "const root = document.getElementById('root');",
      "if (root === null) throw new Error('index.html has no <div id=\"root\">');",
      'createRoot(root).render(',
      '  <StrictMode>',
      '    <App />',
      '  </StrictMode>,',
      ');',
      '',
    ].join('\n'),
  );
  files.set(
    'src/App.tsx',
    [
      '// Yours to edit: created once by `svc generate --admin`, never overwritten.',
      '// <SvcAdmin> (src/generated/admin.tsx) is regenerated from .svcrc; pass it children to add your own resources.',
      "import { SvcAdmin } from './generated/admin';",
      '',
      'export function App() {',
      '  return <SvcAdmin />;',
      '}',
      '',
    ].join('\n'),
  );
  for (const entity of adminEntities(model)) files.set(`src/resources/${resourceFile(entity)}.tsx`, emitResourceOverride(entity));
  return files;
}
