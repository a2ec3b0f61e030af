/**
 * What the admin browser specs share: a temporary project whose admin `svc generate --admin` wrote, its Vite build,
 * and serving a build from another origin (http://localhost:5173, as the admin's dev server) by request
 * interception, so no port is taken while the browser still enforces CORS on the API calls.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { ROOT, svc, tempDir } from '../../cli/generate.helpers';
import { CHROMIUM_ARGS } from '../../support/chromium';

/** The origin a cross-origin build is served from: the admin dev server's, listed in the test apps' `api.cors`. */
export const ADMIN_DEV_ORIGIN = 'http://localhost:5173';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Chromium's flags for a page served by interception: such a page has no address space, so Chromium would treat the
 * loopback API as a private network it may not reach (a dev server on localhost is not subject to that).
 */
export const INTERCEPTED_PAGE_ARGS: readonly string[] = [
  ...CHROMIUM_ARGS,
  '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks,BlockInsecurePrivateNetworkRequests',
];

/** A temporary project with `svcrc` (a repository path, or the object itself) and its admin generated in `admin/`. */
export function generateAdminProject(prefix: string, svcrc: string | object): string {
  const project = tempDir(prefix);
  writeFileSync(join(project, '.svcrc'), typeof svcrc === 'string' ? readFileSync(join(ROOT, svcrc)) : JSON.stringify(svcrc));
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  const run = svc(project, ['generate', '--admin', 'admin']);
  if (run.code !== 0) throw new Error(`svc generate --admin failed: ${run.stderr}`);
  return project;
}

/** `vite build` of `<project>/admin` into `outDir`, calling `apiUrl` (undefined: the origin that serves the build). */
export function buildAdmin(project: string, apiUrl: string | undefined, outDir = 'dist'): string {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  if (apiUrl === undefined) delete env.VITE_SVC_API_URL;
  else env.VITE_SVC_API_URL = apiUrl;
  const app = join(project, 'admin');
  const vite = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--outDir', outDir], {
    cwd: app,
    env,
    encoding: 'utf8',
  });
  if (vite.status !== 0) throw new Error(`vite build failed: ${vite.stderr}`);
  return join(app, outDir);
}

/** Serves the build in `dist` at ADMIN_DEV_ORIGIN to every page of `context`. */
export async function serveAtDevOrigin(context: BrowserContext, dist: string): Promise<void> {
  await context.route(`${ADMIN_DEV_ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = join(dist, path === '/' ? 'index.html' : path);
    if (!existsSync(file)) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ status: 200, contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
  });
}
