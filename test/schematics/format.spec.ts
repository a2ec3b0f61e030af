/**
 * Generated files are printed as Prettier prints them (`printWidth: 140`, `singleQuote`,
 * `trailingComma: all`, the style of the golden reference), so running Prettier with that style
 * over them changes nothing, long names and all.
 */
// ora (reached through @angular-devkit/schematics' package-manager task) is an ECMAScript module
// jest cannot load here; no test installs packages.
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toSearchIndexName } from '../../lib/schema/search-index-name';
import * as prettier from 'prettier';
import { bodyOf, fixture, generate, nestNewTree, readText, REPO_ROOT } from './helpers';

const STYLE: prettier.Options = { parser: 'typescript', printWidth: 140, singleQuote: true, trailingComma: 'all' };

const FIXTURES: Record<string, string> = {
  'test/apps/crud/.svcrc': readFileSync(join(REPO_ROOT, 'test', 'apps', 'crud', '.svcrc'), 'utf8'),
  'test/fixtures/svcrc/full.svcrc': readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'svcrc', 'full.svcrc'), 'utf8'),
  'kitchen-sink.svcrc': fixture('kitchen-sink.svcrc'),
  'long-names.svcrc': fixture('long-names.svcrc'),
};

describe.each(Object.entries(FIXTURES))('files generated for %s', (_name, svcrc) => {
  it('are left unchanged by Prettier', async () => {
    const tree = await generate(await nestNewTree('cjs'), svcrc);
    const files = tree.files.filter((path) => path.endsWith('.ts') && /\/(autogen|guards)\//.test(path));
    expect(files.length).toBeGreaterThan(5);
    for (const path of files) {
      const body = bodyOf(readText(tree, path));
      const formatted = await prettier.format(body, STYLE);
      expect({ path, body }).toEqual({ path, body: formatted });
    }
  });
});

it('wraps long lines the way Prettier does (long-names fixture)', async () => {
  const tree = await generate(await nestNewTree('cjs'), fixture('long-names.svcrc'));
  const entity = bodyOf(readText(tree, '/src/autogen/international-shipment-consolidation-requests/international-shipment-consolidation-request.entity.ts'));
  expect(entity).toContain(
    [
      'export const INTERNATIONAL_SHIPMENT_CONSOLIDATION_REQUEST_DESTINATION_WAREHOUSE_CLASSIFICATION_VALUES = [',
      "  'bonded_customs_warehouse',",
    ].join('\n'),
  );
  expect(entity).toContain('  @ManyToOne(\n    () => CustomsBrokerageServiceProviderOrganization,\n');
});

it('names the trigram index of a long searchable column within PostgreSQL\'s 63 bytes, the same on every run', async () => {
  const tree = await generate(await nestNewTree('cjs'), fixture('long-names.svcrc'));
  const entity = bodyOf(readText(tree, '/src/autogen/international-shipment-consolidation-requests/international-shipment-consolidation-request.entity.ts'));
  const name = toSearchIndexName('international_shipment_consolidation_requests', 'destinationWarehouseClassification');
  expect(name).toMatch(/^svc_trgm_international_shipment_consolidation_\w*_[0-9a-f]{10}$/);
  expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
  expect(entity).toContain(`  @Index('${name}', { synchronize: false })\n  @Column({`);
  expect(toSearchIndexName('items', 'title')).toBe('svc_trgm_items_title');
});
