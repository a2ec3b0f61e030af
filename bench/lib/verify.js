// Before any timing: the three servers must answer every read scenario with the same data, and every
// write with the same record, so that no one is faster by doing less.
'use strict';
const { mulberry32 } = require('./data');
const { SCENARIOS, taskBody } = require('./scenarios');

const SAMPLES_PER_SCENARIO = 6;
/** Set by the database, not by the request: differs between servers for the same write. */
const GENERATED = new Set(['id', 'created_at', 'updated_at']);
/** ours's list answers carry a signed cursor (per-process key) that the others do not produce: a token, not data. */
const PAGE_TOKENS = new Set(['nextCursor']);

/** Sorted keys everywhere; arrays of records below the top level sorted by id (join order is not part of the contract). */
function normalize(value, depth = 0, drop = null) {
  if (Array.isArray(value)) {
    const items = value.map((item) => normalize(item, depth + 1, drop));
    if (depth >= 2 && items.every((item) => item && typeof item === 'object' && 'id' in item)) {
      items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
    return items;
  }
  if (value && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      if (drop && drop.has(key)) continue;
      out[key] = normalize(value[key], depth + 1, drop);
    }
    return out;
  }
  return value;
}

/** The first difference between two normalized values, as a path and both sides. */
function firstDifference(a, b, path = '') {
  if (a === b) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return { path: path || '(root)', ours: a, other: b };
  }
  if (Array.isArray(a) !== Array.isArray(b)) return { path, ours: a, other: b };
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (!(key in a) || !(key in b)) return { path: `${path}.${key}`, ours: a[key], other: b[key] };
    const diff = firstDifference(a[key], b[key], `${path}.${key}`);
    if (diff) return diff;
  }
  return null;
}

async function call(url, request) {
  const response = await fetch(url + request.path, { method: request.method, body: request.body, headers: request.headers });
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

function readRequests() {
  const requests = [];
  for (const scenario of SCENARIOS.filter((s) => s.kind === 'read')) {
    const random = mulberry32(7);
    for (let i = 0; i < SAMPLES_PER_SCENARIO; i++) requests.push({ scenario: scenario.name, ...scenario.next(random) });
  }
  return requests;
}

function writeRequests() {
  const random = mulberry32(11);
  const json = (body) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return [
    { scenario: 'create', method: 'POST', path: '/tasks', ...json(taskBody(random)) },
    { scenario: 'bulk-create-100', method: 'POST', path: '/tasks/bulk', ...json({ bulk: [taskBody(random), taskBody(random), taskBody(random)] }) },
    { scenario: 'update', method: 'PATCH', path: '/tasks/17', ...json({ priority: 2, status: 'doing' }) },
  ];
}

/**
 * `urls`: { ours, reference, floor }. Returns { checked, mismatches: [{ scenario, path, server, detail }] }.
 * Writes are sent to every server; the caller resets the data afterwards.
 */
async function verify(urls) {
  const mismatches = [];
  let checked = 0;
  const summary = [];
  const compare = async (request, drop) => {
    const answers = {};
    for (const [name, url] of Object.entries(urls)) answers[name] = await call(url, request);
    const ours = answers.ours;
    const rows = Array.isArray(ours.body?.data) ? ours.body.data.length : Array.isArray(ours.body) ? ours.body.length : 1;
    summary.push({ scenario: request.scenario, path: request.path, status: ours.status, rows, total: ours.body?.total ?? null, bytes: JSON.stringify(ours.body).length });
    for (const [name, answer] of Object.entries(answers)) {
      if (name === 'ours') continue;
      checked++;
      if (answer.status !== ours.status) {
        mismatches.push({ scenario: request.scenario, path: request.path, server: name, detail: `status ${ours.status} (ours) vs ${answer.status}`, body: answer.body });
        continue;
      }
      const diff = firstDifference(normalize(ours.body, 0, drop), normalize(answer.body, 0, drop));
      if (diff) {
        mismatches.push({
          scenario: request.scenario,
          path: request.path,
          server: name,
          detail: `${diff.path}: ours ${JSON.stringify(diff.ours)?.slice(0, 200)} vs ${JSON.stringify(diff.other)?.slice(0, 200)}`,
        });
      }
    }
    if (ours.status >= 300) mismatches.push({ scenario: request.scenario, path: request.path, server: 'ours', detail: `status ${ours.status}: ${JSON.stringify(ours.body).slice(0, 300)}` });
  };
  for (const request of readRequests()) await compare(request, PAGE_TOKENS);
  for (const request of writeRequests()) await compare(request, GENERATED);
  return { checked, mismatches, summary };
}

module.exports = { verify, normalize, firstDifference };
