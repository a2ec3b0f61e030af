/** JSON with object keys sorted, so two records compare whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A short description of where two page answers differ, or null when they are the same. */
export function pageDifference(actual: Record<string, unknown>, expected: Record<string, unknown>): string | null {
  for (const key of ['total', 'count', 'page', 'pageCount']) {
    if (actual[key] !== expected[key]) return `${key}: got ${JSON.stringify(actual[key])}, expected ${JSON.stringify(expected[key])}`;
  }
  if ('more' in expected && (typeof actual.nextCursor === 'string') !== expected.more) {
    return `nextCursor: got ${JSON.stringify(actual.nextCursor)}, expected ${expected.more ? 'a cursor (more rows follow)' : 'null (last page)'}`;
  }
  const got = (actual.data as unknown[]) ?? [];
  const want = (expected.data as unknown[]) ?? [];
  const ids = (rows: unknown[]) => rows.map((r) => (r as { id: unknown }).id).join(',');
  if (ids(got) !== ids(want)) return `ids: got [${ids(got)}], expected [${ids(want)}]`;
  for (let i = 0; i < want.length; i++) {
    const a = canonicalJson(got[i]);
    const b = canonicalJson(want[i]);
    if (a !== b) return `data[${i}]: got ${a.slice(0, 600)}, expected ${b.slice(0, 600)}`;
  }
  if (Object.keys(actual).sort().join() !== 'count,data,nextCursor,page,pageCount,total') return `keys: ${Object.keys(actual).sort().join()}`;
  return null;
}
