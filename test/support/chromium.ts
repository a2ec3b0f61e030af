/** Debian's Chromium, as the browser tests drive it through playwright-core. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium as root on a machine without outside network: no sandbox, and none of the background
 * connections a closed network would refuse at every start.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
