// The 1M-row comparisons. Each group is timed as one unit: its contenders (a server and a request shape) get the
// same mirrored rounds, so the ratios inside a group are measured side by side. A contender names the features
// of ours it needs (`count`: count=exact|estimated|none, `cursor`: nextCursor / ?cursor=, `searchable`: the
// trigram index of `searchable: true`); when one is missing the contender is not timed and the run fails.
'use strict';
const { SEARCH_WORDS } = require('./data');
const { SEED_1M } = require('./seed-1m');

const pick = (random, n) => 1 + Math.floor(random() * n);
const STATUSES = ['todo', 'doing', 'blocked', 'done'];
const LIMIT = 25;
/** Pages 1,991..2,010: the deep pages, 25 rows each, about 50,000 rows in (depth 2,000 on average). */
const DEEP_PAGES = Array.from({ length: 20 }, (_, i) => 1991 + i);
/** Two-word terms: a pair of adjacent words is rare (a few hundred rows in 1M), the case an index is for. */
const RARE_TERMS = SEARCH_WORDS.map((word, i) => `${word} ${SEARCH_WORDS[(i + 1) % SEARCH_WORDS.length]}`);
const DEEP_PAGE_PATH = `/tasks?sort=id,ASC&limit=${LIMIT}&count=none`;

const get = (path) => ({ method: 'GET', path });

/**
 * `context.cursors`: page number -> the nextCursor ours answered for the page before it, found by walking.
 * Returns the groups; a contender is { key, server, label, requires, total, same, next(random) }:
 * `total` how its answer counts (exact, estimated, none), `same` which contenders must answer the same rows.
 */
function groups1m(context) {
  const deepPage = (random) => DEEP_PAGES[pick(random, DEEP_PAGES.length) - 1];
  const countList = (filtered, mode) => (random) => {
    const filter = filtered ? `filter=status||$eq||${STATUSES[pick(random, 4) - 1]}&` : '';
    return get(`/tasks?${filter}sort=id,ASC&limit=${LIMIT}&page=${pick(random, 40)}&count=${mode}`);
  };
  const search = (terms, field) => (random) => get(`/tasks?filter=${field}||$contL||${encodeURIComponent(terms[pick(random, terms.length) - 1])}&sort=id,ASC&limit=${LIMIT}`);
  const searchGroup = (name, terms, title) => ({
    name,
    title: `GET /tasks?filter=<field>||$contL||<term>&sort=id,ASC&limit=25 (count exact, the default; ${title})`,
    connections: 10,
    contenders: [
      { key: 'ours-searchable', server: 'ours', label: 'ours summary (searchable)', requires: ['searchable'], total: 'exact', same: 'search', next: search(terms, 'summary') },
      { key: 'ours-plain', server: 'ours', label: 'ours summaryPlain (no index)', requires: [], total: 'exact', same: 'search', next: search(terms, 'summaryPlain') },
      { key: 'floor-searchable', server: 'floor', label: 'floor summary (same index)', requires: ['searchable'], total: 'exact', same: 'search', next: search(terms, 'summary') },
      { key: 'floor-plain', server: 'floor', label: 'floor summaryPlain', requires: [], total: 'exact', same: 'search', next: search(terms, 'summaryPlain') },
    ],
    ratios: [
      { name: 'ours searchable / ours plain (req/s)', of: 'ours-searchable', to: 'ours-plain', metric: 'rps', target: 10, better: 'higher' },
      { name: 'floor searchable / floor plain (req/s)', of: 'floor-searchable', to: 'floor-plain', metric: 'rps' },
      { name: 'ours / floor, searchable (req/s)', of: 'ours-searchable', to: 'floor-searchable', metric: 'rps' },
    ],
  });
  const countGroup = (filtered) => ({
    name: filtered ? '1m-count-filtered' : '1m-count-unfiltered',
    title: filtered
      ? 'GET /tasks?filter=status||$eq||<s>&sort=id,ASC&limit=25&page=1..40&count=… (about 250,000 matching rows)'
      : 'GET /tasks?sort=id,ASC&limit=25&page=1..40&count=… (1,000,000 rows)',
    connections: 10,
    contenders: [
      { key: 'ours-exact', server: 'ours', label: 'ours count=exact', requires: ['count'], total: 'exact', same: 'page', next: countList(filtered, 'exact') },
      { key: 'ours-estimated', server: 'ours', label: 'ours count=estimated', requires: ['count'], total: 'estimated', same: 'page', next: countList(filtered, 'estimated') },
      { key: 'ours-none', server: 'ours', label: 'ours count=none', requires: ['count'], total: 'none', same: 'page', next: countList(filtered, 'none') },
      { key: 'floor-exact', server: 'floor', label: 'floor exact count', requires: [], total: 'exact', same: 'page', next: countList(filtered, 'exact') },
      { key: 'floor-none', server: 'floor', label: 'floor no count', requires: [], total: 'none', same: 'page', next: countList(filtered, 'none') },
    ],
    ratios: [
      { name: 'ours none / ours exact (req/s)', of: 'ours-none', to: 'ours-exact', metric: 'rps', ...(filtered ? {} : { target: 5, better: 'higher' }) },
      { name: 'ours estimated / ours exact (req/s)', of: 'ours-estimated', to: 'ours-exact', metric: 'rps' },
      { name: 'ours exact / floor exact (req/s)', of: 'ours-exact', to: 'floor-exact', metric: 'rps' },
      { name: 'ours none / floor none (req/s)', of: 'ours-none', to: 'floor-none', metric: 'rps' },
    ],
  });
  return [
    {
      name: '1m-deep-page',
      title: `GET ${DEEP_PAGE_PATH} — page 1, and pages 1,991–2,010 by cursor and by page (OFFSET ≈ 50,000)`,
      // One connection: the time of one request, not of a queue of ten (1,000 / req/s: autocannon's latencies are whole ms).
      connections: 1,
      contenders: [
        { key: 'ours-first', server: 'ours', label: 'ours first page', requires: ['count'], total: 'none', same: 'first', next: () => get(DEEP_PAGE_PATH) },
        {
          key: 'ours-cursor',
          server: 'ours',
          label: 'ours cursor, page ≈2,000',
          requires: ['count', 'cursor'],
          total: 'none',
          same: 'deep',
          next: (random) => get(`${DEEP_PAGE_PATH}&cursor=${encodeURIComponent(context.cursors?.get(deepPage(random)) ?? '')}`),
        },
        { key: 'ours-offset', server: 'ours', label: 'ours page=≈2,000 (OFFSET)', requires: ['count'], total: 'none', same: 'deep', next: (random) => get(`${DEEP_PAGE_PATH}&page=${deepPage(random)}`) },
        { key: 'floor-first', server: 'floor', label: 'floor first page', requires: [], total: 'none', same: 'first', next: () => get(DEEP_PAGE_PATH) },
        { key: 'floor-offset', server: 'floor', label: 'floor page=≈2,000 (OFFSET)', requires: [], total: 'none', same: 'deep', next: (random) => get(`${DEEP_PAGE_PATH}&page=${deepPage(random)}`) },
      ],
      ratios: [
        { name: 'ours cursor page ≈2,000 / ours first page (time per request)', of: 'ours-cursor', to: 'ours-first', metric: 'msPerRequest', target: 1.5, better: 'lower' },
        { name: 'ours OFFSET page ≈2,000 / ours first page (time per request)', of: 'ours-offset', to: 'ours-first', metric: 'msPerRequest' },
        { name: 'floor OFFSET page ≈2,000 / floor first page (time per request)', of: 'floor-offset', to: 'floor-first', metric: 'msPerRequest' },
      ],
    },
    countGroup(false),
    countGroup(true),
    searchGroup('1m-search', SEARCH_WORDS, 'the 100k scenario\'s words, each in about 3.8% of rows'),
    searchGroup('1m-search-rare', RARE_TERMS, 'two adjacent words, each pair in about 0.02% of rows'),
    {
      name: '1m-join-to-many',
      title: `GET /projects?filter=organizationId||$eq||<o>&join=tasks&sort=id,ASC&limit=10&page=1..100 (10 projects, about 1,000 of the 1,000,000 tasks)`,
      connections: 10,
      contenders: [
        { key: 'ours', server: 'ours', label: 'ours', requires: [], total: 'exact', same: 'join', next: joinToMany },
        { key: 'floor', server: 'floor', label: 'floor', requires: [], total: 'exact', same: 'join', next: joinToMany },
      ],
      ratios: [{ name: 'ours / floor (req/s)', of: 'ours', to: 'floor', metric: 'rps' }],
    },
  ];
}

function joinToMany(random) {
  const pages = SEED_1M.projects / SEED_1M.organizations / 10;
  return get(`/projects?filter=organizationId||$eq||${pick(random, SEED_1M.organizations)}&join=tasks&sort=id,ASC&limit=10&page=${pick(random, pages)}`);
}

module.exports = { groups1m, DEEP_PAGES, DEEP_PAGE_PATH, LIMIT };
