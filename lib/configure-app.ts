import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
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
}

/**
 * Applies the service-wide settings of `.svcrc` to an application: no `X-Powered-By` header,
 * CORS, request bodies as JSON only (any other body is 415) within the body limit, the OpenAPI
 * page at `/_docs` unless `api.docs` is false; and, first, the process settings of
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
