import { readFileSync } from 'node:fs';
import { SVCRC_DEFAULTS } from '../../lib/schema';

// The generator is the plain Node script `npm run schema:generate` runs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderSvcrcGenerated, GENERATED_FILE, SCHEMA_FILE } = require('../../scripts/schema-generate.js') as {
  renderSvcrcGenerated: (schema: object) => Promise<string>;
  GENERATED_FILE: string;
  SCHEMA_FILE: string;
};

const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as {
  properties: Record<string, unknown>;
  definitions: { database: { properties: Record<string, unknown> } };
};

describe('the code generated from schemas/svcrc.schema.json', () => {
  it('is committed as the schema gives it (run npm run schema:generate after editing the schema)', async () => {
    const committed = readFileSync(GENERATED_FILE, 'utf8');
    expect(committed).toBe(await renderSvcrcGenerated(schema));
    expect(committed.startsWith('// Generated from schemas/svcrc.schema.json by `npm run schema:generate`: do not edit.')).toBe(true);
  });

  it('changes when the schema gains a key, in the input type, the raw type and the defaults', async () => {
    const database = schema.definitions.database.properties;
    const grown = {
      ...schema,
      definitions: {
        ...schema.definitions,
        database: {
          ...schema.definitions.database,
          properties: { ...database, idleTimeoutMs: { description: 'Idle time.', type: 'integer', minimum: 0, default: 1234 } },
        },
      },
    };
    const text = await renderSvcrcGenerated(grown);
    expect(text).not.toBe(readFileSync(GENERATED_FILE, 'utf8'));
    expect(text.match(/readonly idleTimeoutMs\?: number;/g)).toHaveLength(2);
    expect(text).toContain('idleTimeoutMs: 1234');
  });

  it('holds the defaults the normalizer applies', () => {
    expect(SVCRC_DEFAULTS.database.parallelWorkersPerStatement).toBe(0);
    expect(SVCRC_DEFAULTS.auth.loginThrottle).toEqual({ maxFailuresPerAccount: 10, maxFailuresPerIp: 100, windowSeconds: 900 });
    expect(SVCRC_DEFAULTS.entities.scopeOptions.enforceOn).toEqual(['find', 'get', 'create', 'update', 'delete']);
  });
});
