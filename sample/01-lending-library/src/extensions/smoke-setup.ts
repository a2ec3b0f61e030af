/**
 * Settings of the generated smoke tests (src/autogen/e2e/, run by `npm test`). They call your
 * controllers, so your guards and hooks apply to them: give them here what your guards require.
 * This file is yours: `svc generate` created it once and never changes it.
 */

/**
 * Headers every smoke-test request sends. /members needs a credential: the smoke client sends a token of its
 * own, with the first of `auth.adminRoles` (staff), so nothing more is needed here.
 */
export const smokeHeaders: Record<string, string> = {};
