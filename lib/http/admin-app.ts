import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, sep } from 'node:path';
import serveStatic from 'serve-static';
import { errorBody } from '../exceptions/error-body';
import { adminCacheControl } from './admin-cache-control';

type Next = (error?: unknown) => void;

/** Where the admin app is served. */
export const ADMIN_PATH = '/_admin';

export interface AdminAppOptions {
  /** Folder of the admin app (`api.admin.dir` resolved against the project root); its build is `<dir>/dist`. */
  readonly dir: string;
  /** The folder as `.svcrc` names it, for the message shown while the app is not built. */
  readonly shownDir: string;
}

/** The last segment of a path has an extension: a file was asked for, not a page of the app. */
const FILE_REQUEST = /\.[^/]*$/;

/** `..` as a path segment, as written or percent-encoded. */
const DOT_DOT_SEGMENT = /(?:^|\/|%2f|\\|%5c)(?:\.|%2e){2}(?:$|\/|%2f|\\|%5c)/i;

/** A URL path percent-decoded (`%2eenv` is `.env`), or as written when it does not decode. */
function decodedOrRaw(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(errorBody(status, message)));
}

/**
 * Middleware serving the built admin app (`<dir>/dist`) at `/_admin`, on Express and on Fastify
 * (middie) alike, since it is written against Node's request and response, as
 * `createJsonOnlyMiddleware()`; the files go through `serve-static` (content types, `ETag`,
 * conditional and range requests, no path outside `dist/`, no dotfile).
 *
 * - `/_admin` redirects (308) to `/_admin/`: the app is built with `base: './'`, so its asset
 *   URLs resolve against the page's folder; `/_admin/` answers `index.html`.
 * - A file of `dist/` answers with its content type; hashed assets are cached for a year,
 *   `index.html` and other files revalidated (`adminCacheControl()`).
 * - Any other path without an extension answers `index.html` (the app's router handles it);
 *   a missing file, or a path with a `..` segment, answers 404 in the error envelope.
 * - While `dist/index.html` does not exist, every `/_admin` path answers 503 telling how to build it;
 *   it is looked for on each request, so a build made while the API runs is served without a restart.
 *
 * Only `GET` and `HEAD` are answered here; other methods go on to the routes (and their 404).
 * The answer is given before routing, so no guard (authentication, throttling, tenant) runs:
 * the app is public files; its calls to the API are authenticated as any client's.
 */
export function createAdminAppMiddleware(options: AdminAppOptions) {
  const dist = join(options.dir, 'dist');
  const index = join(dist, 'index.html');
  const files = serveStatic(dist, {
    index: false,
    redirect: false,
    fallthrough: true,
    dotfiles: 'ignore',
    cacheControl: false,
    setHeaders: (response, path) => {
      response.setHeader('Cache-Control', adminCacheControl(relative(dist, path).split(sep).join('/')));
    },
  });
  const notBuilt =
    `The admin app is not built: ${options.shownDir}/dist/index.html is missing. ` +
    `Run "npm install && npm run build" in ${options.shownDir}/ (svc dev does it), or create the app with "svc generate --admin ${options.shownDir}".`;

  return (request: IncomingMessage, response: ServerResponse, next: Next): void => {
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (path !== ADMIN_PATH && !path.startsWith(`${ADMIN_PATH}/`)) return next();
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (!existsSync(index)) return sendError(response, 503, notBuilt);
    if (path === ADMIN_PATH) {
      response.writeHead(308, { Location: `${ADMIN_PATH}/${queryAt === -1 ? '' : url.slice(queryAt)}` });
      response.end();
      return;
    }
    const inside = path.slice(ADMIN_PATH.length);
    if (DOT_DOT_SEGMENT.test(inside)) return sendError(response, 404, `Cannot GET ${path}`);
    const serve = (target: string, otherwise: () => void): void => {
      request.url = target;
      files(request, response, (error?: unknown) => {
        request.url = url;
        if (error !== undefined) next(error);
        else otherwise();
      });
    };
    const fallback = (): void => {
      if (FILE_REQUEST.test(decodedOrRaw(inside))) sendError(response, 404, `Cannot GET ${path}`);
      else serve('/index.html', () => sendError(response, 503, notBuilt));
    };
    if (inside === '/') fallback();
    else serve(inside, fallback);
  };
}
