/*
 * The data and auth providers of the admin app. This folder is owned by @svc/nest: it is copied from
 * the package on every `svc generate --admin` run, so keep your changes in src/App.tsx instead.
 */
import crudModule from 'ra-data-nestjsx-crud';
import type { AuthProvider, DataProvider } from 'react-admin';

// ra-data-nestjsx-crud is CommonJS with `exports.default`. In a package of `"type": "module"` the bundler imports
// it the Node way (the default import is `module.exports`, the provider is its `default`); elsewhere the default
// import is the provider itself. Accept both.
const crudProvider: typeof crudModule = (crudModule as unknown as { default?: typeof crudModule }).default ?? crudModule;

export interface SvcProviderOptions {
  /** Origin (and path prefix, if any) of the svc API, without a trailing slash. */
  readonly apiUrl: string;
  /** How the API authenticates the browser: an `Authorization: Bearer` header, or the `svc_session` cookie. */
  readonly auth: 'bearer' | 'cookie';
  /** React-admin resource (the route, `book-copies`) → entity name (`BookCopy`). */
  readonly entities: Readonly<Record<string, string>>;
}

export interface SvcProviders {
  readonly dataProvider: DataProvider;
  readonly authProvider?: AuthProvider;
}

export function createSvcProviders(options: SvcProviderOptions): SvcProviders {
  return { dataProvider: crudProvider(options.apiUrl) };
}
