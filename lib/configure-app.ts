import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { resolve } from 'node:path';
import { createAdminAppMiddleware } from './http/admin-app';
import { corsOptions } from './http/cors-options';
import { useJsonBodyParser } from './http/json-body';
import { createJsonOnlyMiddleware } from './http/json-only';
import { applyOperationalSettings } from './production/operational-settings';
import { endStartOnListenFailure } from './production/listen-failure';
import { runtimeParts, SvcRuntime } from './crud/svc-runtime';
import { documentPermittedRoles } from './swagger/permitted-roles';

export interface ConfigureAppOptions {
  /** Title of the OpenAPI document. Default: the package name from `npm_package_name`, else `API`. */
  title?: string;
  /** Version of the OpenAPI document. Default `1.0.0`. */
  version?: string;
  /**
   * Serve the OpenAPI page at `/_docs` (JSON at `/_docs-json`, YAML at `/_docs-yaml`). Default:
   * `api.docs` of `.svcrc` (itself default true). `false` here or there turns the page off.
   */
  docs?: boolean;
  /**
   * Serve the built admin app at `/_admin` when `api.admin` of `.svcrc` is on (it is off by
   * default). `false` here turns it off, as `docs` does for `/_docs`. Its folder is `api.admin.dir`
   * relative to the working directory (the project root), unless `adminRoot` says otherwise.
   */
  admin?: boolean;
  /** The folder `api.admin.dir` is relative to. Default: the working directory. */
  adminRoot?: string;
}

/**
 * Applies the service-wide settings of `.svcrc` to an application: no `X-Powered-By` header,
 * CORS, request bodies as JSON only (any other body is 415) within the body limit, the OpenAPI
 * page at `/_docs` unless `api.docs` is false, the admin app at `/_admin` when `api.admin` is on; and, first, the process settings of
 * `applyOperationalSettings()`: `LOG_LEVEL`, `TRUST_PROXY`, request logging, and a
 * graceful shutdown on SIGTERM (in-flight requests finish, the database closes, exit 0); and a port already in
 * use ends the start with one line and exit code 1 (`endStartOnListenFailure()`).
 */
export function configureSvcApp(app: INestApplication, options: ConfigureAppOptions = {}): void {
  applyOperationalSettings(app);
  endStartOnListenFailure(app);
  const { model } = runtimeParts(app.get(SvcRuntime));
  hidePoweredBy(app);
  if (model.api.cors) {
    app.enableCors(corsOptions(model.api.cors));
  }
  if (model.api.admin && options.admin !== false) {
    const { dir } = model.api.admin;
    // Before the JSON-only check: a GET of a page or an asset is never refused for its headers.
    app.use(createAdminAppMiddleware({ dir: resolve(options.adminRoot ?? process.cwd(), dir), shownDir: dir }));
  }
  // After CORS, so an allowed origin can read the 415; before any body parser.
  app.use(createJsonOnlyMiddleware());
  useJsonBodyParser(app, model.api.bodyLimit);
  if (model.api.docs && options.docs !== false) {
    const config = new DocumentBuilder()
      .setTitle(options.title ?? process.env.npm_package_name ?? 'API')
      .setVersion(options.version ?? '1.0.0')
      .addBearerAuth()
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'api-key')
      .build();
    SwaggerModule.setup('_docs', app, () => documentPermittedRoles(SwaggerModule.createDocument(app, config), app, model));
  }
}

/** Express announces itself in `X-Powered-By` unless told not to; Fastify sends no such header. */
function hidePoweredBy(app: INestApplication): void {
  const adapter = app.getHttpAdapter();
  if (adapter.getType() !== 'express') return;
  (adapter.getInstance() as { disable(setting: string): unknown }).disable('x-powered-by');
}
