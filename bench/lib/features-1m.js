// What the 1M scenarios need from ours, asked of the running server (never assumed): count modes, cursors,
// and the trigram index of `searchable: true`. Also the walk that obtains the deep pages' cursors the way a
// client gets them: following nextCursor from the first page.
'use strict';
const { trigramIndexOn } = require('./seed-1m');
const { DEEP_PAGES, DEEP_PAGE_PATH } = require('./scenarios-1m');

async function call(url, path) {
  const response = await fetch(url + path);
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}

/** nextCursor of a list answer: the page object's field, else a response header (plain-array lists). */
function nextCursorOf(answer) {
  if (answer.body && typeof answer.body === 'object' && !Array.isArray(answer.body) && 'nextCursor' in answer.body) return answer.body.nextCursor;
  for (const [name, value] of answer.headers) if (/next-?cursor/i.test(name)) return value;
  return undefined;
}

const brief = (answer) => `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;

async function probeCount(url) {
  const none = await call(url, '/tasks?sort=id,ASC&limit=1&count=none');
  if (none.status !== 200) return { ok: false, reason: `ours answers ${brief(none)} to count=none: count modes are not in this build (h/cursor)` };
  if (none.body?.total !== null) return { ok: false, reason: `ours answers total ${JSON.stringify(none.body?.total)} to count=none (expected null): count modes are not in this build` };
  const estimated = await call(url, '/tasks?sort=id,ASC&limit=1&count=estimated');
  if (estimated.status !== 200 || typeof estimated.body?.total !== 'number') return { ok: false, reason: `ours answers ${brief(estimated)} to count=estimated` };
  return { ok: true };
}

async function probeCursor(url) {
  const first = await call(url, DEEP_PAGE_PATH);
  const cursor = first.status === 200 ? nextCursorOf(first) : undefined;
  if (typeof cursor !== 'string' || !cursor) {
    return { ok: false, reason: `ours's first page (${first.status}) carries no nextCursor (body field or header): cursor pagination is not in this build (h/cursor)` };
  }
  return { ok: true };
}

function probeSearchable(taskIndexes) {
  const index = trigramIndexOn(taskIndexes, 'summary');
  if (!index) {
    return {
      ok: false,
      reason: 'no pg_trgm GIN index on tasks.summary after ours created the schema: `searchable: true` (h/search) is not in this build or bench/.svcrc',
    };
  }
  const plain = trigramIndexOn(taskIndexes, 'summaryPlain');
  if (plain) return { ok: false, reason: `tasks.summaryPlain has a trigram index too (${plain}): the comparison would be meaningless` };
  return { ok: true, index };
}

async function probeFeatures(oursUrl, taskIndexes) {
  return { count: await probeCount(oursUrl), cursor: await probeCursor(oursUrl), searchable: probeSearchable(taskIndexes) };
}

/** Follows nextCursor from page 1 to the last deep page; returns page number -> the cursor that fetches it. */
async function walkCursors(oursUrl) {
  const cursors = new Map();
  const last = Math.max(...DEEP_PAGES);
  let cursor = null;
  for (let page = 1; page <= last; page++) {
    const answer = await call(oursUrl, cursor === null ? DEEP_PAGE_PATH : `${DEEP_PAGE_PATH}&cursor=${encodeURIComponent(cursor)}`);
    if (answer.status !== 200) throw new Error(`cursor walk: page ${page} answered ${brief(answer)}`);
    cursor = nextCursorOf(answer);
    if (typeof cursor !== 'string' || !cursor) throw new Error(`cursor walk: page ${page} carries no nextCursor`);
    cursors.set(page + 1, cursor);
  }
  return cursors;
}

module.exports = { call, nextCursorOf, probeFeatures, walkCursors };
