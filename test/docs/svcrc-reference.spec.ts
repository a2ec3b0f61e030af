/**
 * docs/svcrc.md's key reference is generated from schemas/svcrc.schema.json, and `svc schema validate`
 * points each problem at the section of that page that explains its key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SVCRC_DOCS_SECTIONS, svcrcDocsLink } from '../../lib/schema/svcrc-docs-sections';
import { renderSvcrcReference, SVCRC_REFERENCE_END, SVCRC_REFERENCE_START, withSvcrcReference } from '../../lib/schema/svcrc-reference';
import { assertBuilt, svc, tempDir } from '../cli/generate.helpers';
import { anchors, ROOT } from './markdown';

const PAGE = join(ROOT, 'docs', 'svcrc.md');
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'schemas', 'svcrc.schema.json'), 'utf8')) as object;

describe('the key reference of docs/svcrc.md', () => {
  it('is the one the JSON Schema gives (regenerate: npm run build && node scripts/docs-generate.js)', () => {
    const page = readFileSync(PAGE, 'utf8');
    if (withSvcrcReference(page, SCHEMA) !== page) {
      throw new Error('docs/svcrc.md: the key reference is out of date; run: npm run build && node scripts/docs-generate.js');
    }
  });

  it('lists every key of the schema with its description, default and type', () => {
    const reference = renderSvcrcReference(SCHEMA);
    expect(reference).toContain(
      '| `defaultLimit` | integer, ≥ 1 | `25` | Page size of a paginated list (with "page" or "offset", or "alwaysPaginate") when the request has no "limit". Default 25. |',
    );
    expect(reference).toContain('| `onDelete` | `"CASCADE"` \\| `"SET NULL"` \\| `"RESTRICT"` |');
    expect(reference).toContain('| `version` | `2` | required |');
    for (const key of ['userEntity', 'loginThrottle', 'scopeBy', 'softDelete', 'is_password', 'inverseName', 'bodyLimit', 'max']) {
      expect(reference).toContain(`| \`${key}\` |`);
    }
  });

  it('has a heading for every section, with the anchor that links use', () => {
    const found = anchors('docs/svcrc.md');
    expect(SVCRC_DOCS_SECTIONS.filter((section) => !found.has(section.anchor)).map((section) => section.anchor)).toEqual([]);
  });

  it('is rewritten between its markers and nowhere else', () => {
    const page = `# T\n\n${SVCRC_REFERENCE_START}\nstale\n${SVCRC_REFERENCE_END}\n\nAfter.\n`;
    expect(withSvcrcReference(page, SCHEMA)).toBe(`# T\n\n${SVCRC_REFERENCE_START}\n${renderSvcrcReference(SCHEMA)}\n${SVCRC_REFERENCE_END}\n\nAfter.\n`);
    expect(() => withSvcrcReference('# none', SCHEMA)).toThrow(SVCRC_REFERENCE_START);
  });
});

describe('the section that explains a problem', () => {
  it.each([
    ['version', 'docs/svcrc.md#top-level'],
    ['', 'docs/svcrc.md#top-level'],
    ['auth.loginThrottle.windowSeconds', 'docs/svcrc.md#authloginthrottle'],
    ['auth.userEntity', 'docs/svcrc.md#auth'],
    ['entities[5].fields[0].type', 'docs/svcrc.md#field-entitiesfields'],
    ['entities[2].scopeOptions.enforceOn[1]', 'docs/svcrc.md#entitiesscopeoptions'],
    ['entities[2].scopeBy[1]', 'docs/svcrc.md#entity-entities'],
    ['relationships[2].to', 'docs/svcrc.md#relationship-relationships'],
    ['api.pagination.defaultLimit', 'docs/svcrc.md#apipagination'],
    ['database.pool.max', 'docs/svcrc.md#databasepool'],
  ])('%s → %s', (path, link) => {
    expect(svcrcDocsLink(path)).toBe(link);
  });

  it('is printed under each problem by svc schema validate and svc generate', () => {
    assertBuilt();
    const dir = tempDir('svcrc-docs-link');
    const bad = { version: 2, entities: [{ name: 'Task', fields: [{ name: 'title', type: 'varchar' }] }], api: { pagination: { maxLimit: 0 } } };
    require('node:fs').writeFileSync(join(dir, '.svcrc'), JSON.stringify(bad));
    const validate = svc(dir, ['schema', 'validate']);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('✖ entities[0].fields[0].type: must be one of');
    expect(validate.stdout).toContain('\n  see docs/svcrc.md#field-entitiesfields in @svc/nest\n');
    expect(validate.stdout).toContain('✖ api.pagination.maxLimit:');
    expect(validate.stdout).toContain('\n  see docs/svcrc.md#apipagination in @svc/nest\n');
    const generate = svc(dir, ['generate']);
    expect(generate.code).toBe(1);
    expect(generate.stderr).toContain('  see docs/svcrc.md#field-entitiesfields in @svc/nest');
  });
});
