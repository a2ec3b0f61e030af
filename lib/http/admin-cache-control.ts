/** A year: what a file whose name changes with its content may be cached for. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Stored, but checked with the server (`ETag`, `Last-Modified`) before each use. */
const REVALIDATE = 'no-cache';

/**
 * A file name carrying Vite's content hash (`index-B3kf9x_Q.js`, `logo-4bF0a2Ce.svg`): Vite writes
 * them to `assets/`, and a new build gives a changed file a new name.
 */
const HASHED_ASSET = /(?:^|\/)assets\/(?:.+\/)?[^/]+[-.][A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;

/**
 * `Cache-Control` of a file of the built admin app, by its path relative to `dist/` (`/`-separated):
 * hashed assets for a year, everything else (`index.html`, which names the current assets, and
 * files copied from `public/` under a fixed name) revalidated on each use, so a new build is seen at once.
 */
export function adminCacheControl(relativePath: string): string {
  return HASHED_ASSET.test(relativePath) ? IMMUTABLE : REVALIDATE;
}
