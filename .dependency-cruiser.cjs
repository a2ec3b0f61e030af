/**
 * Import rules of lib/ (checked by test/architecture/layers.spec.ts in `npm test`).
 *
 * Layers, lowest first; a layer imports only layers below it:
 *   base   schema/, query/, interfaces/, exceptions/, logging/, database/, svc.constants.ts, svc.module-definition.ts, node-env.ts
 *   sql    sql/       the SQL context, entity plans, conditions, shared predicates, builders and the one executor
 *   scope  scope/     tenant scope and identity rules as SQL conditions
 *   events events/    domain events of writes
 *   realtime realtime/ live data: which records are in a caller's view, judged in memory (on scope and events)
 *   auth   auth/      identity lookups, tokens, guards
 *   crud   crud/      CrudService and SvcRuntime
 *   top    svc.module.ts, svc.providers.ts, configure-app.ts, index.ts, testing/ (the `@svc/nest/testing` entry)
 * The other folders (decorators/, filters/, http/, production/, health/, throttling/, swagger/, validation/, idempotency/, preconditions/,
 * pipes/) are Nest plumbing: the layers up to events must not import them. Folders must not import each other in a
 * circle either (auth/ <-> production/, say): the spec checks that on the module graph this tool reports.
 *
 * SQL text stays in lib/sql/ (statements in lib/sql/statements/): imports cannot show that, so
 * test/architecture/sql-in-sql-layer.spec.ts reads lib/ and cli/ for `.query(` calls and SQL statement text, and
 * lists the few files outside lib/sql/ allowed them (schema synchronization, index creation, a migration), each with its reason.
 */
const BASE = '^lib/(schema|query|interfaces|exceptions|logging|database)/|^lib/(svc[.]constants|svc[.]module-definition|node-env)[.]ts$';
const PLUMBING = '^lib/(decorators|filters|http|production|health|throttling|swagger|validation|pipes|idempotency|preconditions)/';
const TOP = '^lib/(svc[.]module|svc[.]providers|configure-app|index)[.]ts$|^lib/testing/';

/** A rule forbidding imports from `from` into any of `to`. */
function forbid(name, comment, from, to) {
  return { name, comment, severity: 'error', from: { path: from }, to: { path: to.join('|') } };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules of lib/ must not import each other in a circle, type-only imports included.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    forbid('base-imports-upward', 'The base layer knows nothing of SQL, scope, events, auth, CRUD or Nest plumbing.', BASE, [
      '^lib/(sql|scope|events|realtime|auth|crud)/',
      PLUMBING,
      TOP,
    ]),
    forbid('sql-imports-upward', 'lib/sql is the lowest runtime layer: it imports only the base layer.', '^lib/sql/', [
      '^lib/(scope|events|realtime|auth|crud)/',
      PLUMBING,
      TOP,
    ]),
    forbid('scope-imports-upward', 'lib/scope sits on lib/sql only.', '^lib/scope/', ['^lib/(events|realtime|auth|crud)/', PLUMBING, TOP]),
    forbid('events-imports-upward', 'lib/events sits on lib/sql only.', '^lib/events/', [
      '^lib/(scope|realtime|auth|crud)/',
      PLUMBING,
      TOP,
    ]),
    forbid('realtime-imports-upward', 'lib/realtime sits on lib/scope, lib/events and lib/sql.', '^lib/realtime/', [
      '^lib/(auth|crud)/',
      PLUMBING,
      TOP,
    ]),
    // Invitations publish a domain event (invitation.created), so auth may use events, the layer below it.
    forbid('auth-imports-upward', 'lib/auth sits on lib/scope, lib/events and lib/sql.', '^lib/auth/', ['^lib/crud/', TOP]),
    forbid('crud-imports-upward', 'lib/crud is used by the module, not the other way round.', '^lib/crud/', [TOP]),
  ],
  options: {
    includeOnly: '^lib/',
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
