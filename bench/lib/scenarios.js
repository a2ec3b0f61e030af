// The load scenarios. Each `next(random)` returns the next request; the same seed gives every server the
// same request sequence. Query strings use bare repeated keys (`filter=..&filter=..`), which all three
// servers read the same way (Express 5's simple parser turns repeats into arrays).
'use strict';
const { SEED, SEARCH_WORDS } = require('./data');

const pick = (random, n) => 1 + Math.floor(random() * n);
const STATUSES = ['todo', 'doing', 'blocked', 'done'];

function taskBody(random) {
  return {
    title: `bench task ${pick(random, 1e6)} webhook rollout`,
    description: 'created by the bench: text worth searching, moderately long like a real description',
    status: STATUSES[pick(random, 4) - 1],
    priority: pick(random, 5),
    estimate: (pick(random, 4000) / 100).toFixed(2),
    dueAt: new Date(Date.UTC(2026, 0, pick(random, 300))).toISOString(),
    done: false,
    projectId: pick(random, SEED.projects),
  };
}

const json = (body) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/**
 * `target`: ours / reference (req/s) at least; `floorTarget`: ours / floor for reads (default `TARGETS.vsFloorReads`).
 * Issue 17: at least 2× @dataui/crud on every scenario, 0.6× the floor on reads and 1.0× on the joins.
 * @type {{ name: string, title: string, kind: 'read'|'write', target: number, floorTarget?: number, next(random: () => number): { method: string, path: string, body?: string, headers?: object } }[]} */
const SCENARIOS = [
  {
    name: 'get-by-id',
    title: 'GET /tasks/:id',
    kind: 'read',
    target: 2,
    next: (r) => ({ method: 'GET', path: `/tasks/${pick(r, SEED.tasks)}` }),
  },
  {
    name: 'list-filter-sort',
    title: 'GET /tasks?filter=projectId&sort=priority,DESC&limit=25',
    kind: 'read',
    target: 2,
    next: (r) => ({
      method: 'GET',
      path: `/tasks?filter=projectId||$eq||${pick(r, SEED.projects)}&sort=priority,DESC&sort=id,ASC&limit=25`,
    }),
  },
  {
    name: 'list-join-to-one',
    title: 'GET /tasks?join=project&limit=25&page=1..40',
    kind: 'read',
    target: 2,
    floorTarget: 1,
    next: (r) => ({ method: 'GET', path: `/tasks?join=project&sort=id,ASC&limit=25&page=${pick(r, 40)}` }),
  },
  {
    name: 'list-join-to-many',
    title: 'GET /projects?filter=organizationId&join=tasks&limit=10&page=1..10',
    kind: 'read',
    target: 2,
    floorTarget: 1,
    next: (r) => ({
      method: 'GET',
      path: `/projects?filter=organizationId||$eq||${pick(r, SEED.organizations)}&join=tasks&sort=id,ASC&limit=10&page=${pick(r, 10)}`,
    }),
  },
  {
    name: 'search-contL',
    title: 'GET /tasks?filter=title||$contL||<word>&limit=25',
    kind: 'read',
    target: 2,
    next: (r) => ({
      method: 'GET',
      path: `/tasks?filter=title||$contL||${SEARCH_WORDS[pick(r, SEARCH_WORDS.length) - 1]}&sort=id,ASC&limit=25`,
    }),
  },
  {
    name: 'filter-or',
    title: 'GET /tasks?filter=..&filter=..&or=..&or=..&limit=25',
    kind: 'read',
    target: 2,
    next: (r) => ({
      method: 'GET',
      path:
        `/tasks?filter=projectId||$eq||${pick(r, SEED.projects)}&filter=done||$eq||false` +
        `&or=projectId||$eq||${pick(r, SEED.projects)}&or=priority||$gte||4&sort=id,ASC&limit=25`,
    }),
  },
  {
    name: 'create',
    title: 'POST /tasks',
    kind: 'write',
    target: 2,
    next: (r) => ({ method: 'POST', path: '/tasks', ...json(taskBody(r)) }),
  },
  {
    name: 'bulk-create-100',
    title: 'POST /tasks/bulk (100 rows)',
    kind: 'write',
    target: 2,
    next: (r) => ({ method: 'POST', path: '/tasks/bulk', ...json({ bulk: Array.from({ length: 100 }, () => taskBody(r)) }) }),
  },
  {
    name: 'update',
    title: 'PATCH /tasks/:id',
    kind: 'write',
    target: 2,
    next: (r) => ({
      method: 'PATCH',
      path: `/tasks/${pick(r, SEED.patchRange)}`,
      ...json({ priority: pick(r, 5), status: STATUSES[pick(r, 4) - 1] }),
    }),
  },
];

module.exports = { SCENARIOS, taskBody };
