// Shared constants of the data set and a small deterministic PRNG.
'use strict';

const SEED = {
  organizations: 10,
  projects: 1000,
  tasks: 100_000,
  /** The update scenario patches tasks 1..patchRange (restored after each server). */
  patchRange: 5000,
};

/** mulberry32: tiny, fast, deterministic. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return function random() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = (
  'invoice payment customer account refund report dashboard export import billing ledger audit ' +
  'onboarding migration database schema index query cache latency timeout retry webhook queue worker ' +
  'deploy release rollback staging production monitoring alert incident postmortem runbook oncall ' +
  'design review prototype mockup feedback survey interview persona journey roadmap milestone sprint ' +
  'backlog estimate spike refactor cleanup upgrade dependency security patch vulnerability token session ' +
  'login password permission role tenant organization project workspace invite member profile avatar ' +
  'notification email template newsletter campaign analytics funnel conversion pricing discount coupon ' +
  'subscription renewal trial checkout cart shipping warehouse inventory supplier contract legal compliance ' +
  'privacy consent retention backup restore archive search filter sorting pagination mobile tablet desktop ' +
  'accessibility translation locale timezone calendar reminder schedule meeting agenda minutes budget forecast ' +
  'hiring training documentation tutorial changelog api sdk plugin integration partner vendor support ticket'
).split(' ');

/** Words the search scenario looks for (each in roughly 3% of titles). */
const SEARCH_WORDS = ['invoice', 'webhook', 'rollback', 'persona', 'vulnerability', 'tenant', 'campaign', 'warehouse', 'archive', 'calendar'];

module.exports = { SEED, mulberry32, VOCABULARY, SEARCH_WORDS };
