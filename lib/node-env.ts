/** Whether `NODE_ENV` is `production` (any case, surrounding spaces ignored). */
export function isProduction(env: Record<string, string | undefined> = process.env): boolean {
  return env.NODE_ENV?.trim().toLowerCase() === 'production';
}
