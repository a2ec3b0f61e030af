/**
 * The public API of @svc/nest, name by name: what \`lib/index.ts\` exports, as values (present at run
 * time) and as types (declarations only). Adding or removing a name changes these lists, so it shows
 * in review; internals (the normalized model, the SQL layer, helpers of the runtime) stay out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ts from 'typescript';
import * as api from '@svc/nest';

const INDEX = join(__dirname, '..', '..', 'lib', 'index.ts');

/** Exported names that exist at run time: modules, classes, functions, decorators, constants. */
const VALUES = [
  'ApiChangeFeed',
  'ApiErrorResponses',
  'ApiFilterWriteQuery',
  'ApiFilterWriteResponse',
  'ApiListQuery',
  'ApiPaginatedResponse',
  'ApiSelectionQuery',
  'ApiUpsertQuery',
  'Auth',
  'clearSessionCookie',
  'configureSvcApp',
  'createCrudRequest',
  'CrudEntity',
  'CrudOperation',
  'CrudRoutes',
  'CrudService',
  'domainEventName',
  'EntitlementRequiredException',
  'InMemoryThrottlerStorage',
  'IS_PUBLIC_KEY',
  'IsDecimalValue',
  'ParsedRequest',
  'ParseIntIdPipe',
  'ParseUuidIdPipe',
  'Public',
  'QuotaExceededException',
  'ScopeGuard',
  'ServiceLimitReachedException',
  'setSessionCookie',
  'SkipScopeCheck',
  'SVC_THROTTLER_STORAGE',
  'SvcApiKeyService',
  'SvcAuthGuard',
  'SvcExceptionFilter',
  'svcFastifyOptions',
  'SvcGuardsModule',
  'SvcModule',
  'SvcPermissions',
  'SvcRuntime',
  'SvcValidationPipe',
  'TeamMemberLimitReachedException',
  'WorkspaceNotFoundException',
];

/** Exported names that are types only. */
const TYPES = [
  'ApiKeyInfo',
  'AuthContext',
  'ConfigureAppOptions',
  'CookieResponse',
  'CreateApiKeyInput',
  'CreateCrudRequestOptions',
  'CreatedApiKey',
  'CrudOperationOptions',
  'CrudRequest',
  'CrudRouteKey',
  'CrudRouteSetting',
  'DecimalOptions',
  'DomainEvent',
  'DomainEventAction',
  'ErrorBody',
  'FieldCondition',
  'FieldError',
  'FilterOperator',
  'FilterWriteResponse',
  'Page',
  'RawSqlCondition',
  'RequestPreconditions',
  'SvcFastifyOptions',
  'SvcGuardsModuleOptions',
  'SvcModuleOptions',
  'SvcrcV2',
  'SvcSchemaSource',
  'SvcThrottlerStorage',
];

/** Names that were public before 0.2 and are internals: they must not come back by accident. */
const INTERNALS = [
  'ServiceModel',
  'EntityModel',
  'FieldModel',
  'ColumnModel',
  'AuthModel',
  'LoginThrottleModel',
  'SVC_MODEL',
  'hashPassword',
  'verifyPassword',
  'readCookie',
  'openPglite',
  'acquireDataDirLock',
  'LOCK_FILE_NAME',
  'classifyDatabaseError',
  'toSnakeCase',
  'parseSvcrc',
  'loadSvcrc',
  'parseQuery',
  'SvcTokenService',
];

/** Names only tests need: they moved to `@svc/nest/testing` (test/package/testing-entry.spec.ts). */
const TESTING_ONLY = ['SqlExecutor', 'EntityPlans', 'ReadExecutor', 'WriteExecutor', 'ScopeEnforcer', 'DomainEventPublisher', 'smokeApp', 'SmokeClient'];

/** The most names the root API may hold (terminus has 35, throttler 29): a name that joins makes room first. */
const MAX_NAMES = 70;

interface Exported {
  readonly name: string;
  readonly typeOnly: boolean;
  readonly documented: boolean;
}

/** Every export specifier of lib/index.ts, with whether it is type-only and has a doc comment. */
function readIndex(): { exported: Exported[]; source: ts.SourceFile } {
  const text = readFileSync(INDEX, 'utf8');
  const source = ts.createSourceFile(INDEX, text, ts.ScriptTarget.Latest, true);
  const exported: Exported[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const documented = (ts.getLeadingCommentRanges(text, statement.pos) ?? []).some((range) => text.startsWith('/**', range.pos));
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) {
      exported.push({ name: '*', typeOnly: statement.isTypeOnly, documented });
      continue;
    }
    for (const element of clause.elements) {
      exported.push({ name: element.name.text, typeOnly: statement.isTypeOnly || element.isTypeOnly, documented });
    }
  }
  return { exported, source };
}

const sorted = (names: Iterable<string>): string[] =>
  [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b));

let names: string[] | undefined;

/** The names lib/index.ts exports, as the compiler resolves them (through any re-export). */
function resolved(): string[] {
  if (names !== undefined) return names;
  const program = ts.createProgram([INDEX], {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    skipLibCheck: true,
    noEmit: true,
    experimentalDecorators: true,
  });
  const checker = program.getTypeChecker();
  names = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(INDEX)!)!).map((entry) => entry.name);
  return names;
}

describe('the public API (lib/index.ts)', () => {
  const { exported, source } = readIndex();

  it('re-exports names one by one: no export *, no nested barrel', () => {
    expect(exported.filter((entry) => entry.name === '*')).toEqual([]);
    // A folder (or its index) would re-export whatever that folder's barrel grows to.
    const barrels = source.statements
      .filter(ts.isExportDeclaration)
      .map((statement) => (statement.moduleSpecifier as ts.StringLiteral).text)
      .filter((from) => /(^|\/)index$/.test(from) || existsSync(join(dirname(INDEX), from, 'index.ts')));
    expect(barrels).toEqual([]);
    expect(source.statements.every((statement) => !ts.isExportAssignment(statement))).toBe(true);
  });

  it('documents every exported name', () => {
    expect(exported.filter((entry) => !entry.documented).map((entry) => entry.name)).toEqual([]);
  });

  it('exports exactly these values', () => {
    expect(sorted(exported.filter((entry) => !entry.typeOnly).map((entry) => entry.name))).toEqual(sorted(VALUES));
    expect(sorted(Object.keys(api).filter((name) => name !== '__esModule'))).toEqual(sorted(VALUES));
  });

  it('exports exactly these types', () => {
    expect(sorted(exported.filter((entry) => entry.typeOnly).map((entry) => entry.name))).toEqual(sorted(TYPES));
  });

  it('declares the same names as the compiler resolves them', () => {
    expect(sorted(resolved())).toEqual(sorted([...VALUES, ...TYPES]));
  });

  it('keeps the internals out', () => {
    const names = new Set(resolved());
    expect(INTERNALS.filter((name) => names.has(name))).toEqual([]);
  });

  it('keeps what only tests need out, in @svc/nest/testing', () => {
    const names = new Set(resolved());
    expect(TESTING_ONLY.filter((name) => names.has(name))).toEqual([]);
  });

  it(`stays small: at most ${MAX_NAMES} names, values and types together`, () => {
    expect(resolved().length).toBeLessThanOrEqual(MAX_NAMES);
    expect(exported.length).toBeLessThanOrEqual(MAX_NAMES);
  });
});
