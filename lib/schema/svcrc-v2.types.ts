/**
 * The `.svcrc` format, version 2, as a TypeScript type: what generated apps embed
 * (`src/autogen/svc.schema.ts`) and pass to `SvcModule.forRoot({ schema })`, which checks and
 * normalizes it at startup with the same reader as the CLI. Generated from the JSON Schema.
 */
export type {
  SvcrcV2,
  SvcrcV2Api,
  SvcrcV2Auth,
  SvcrcV2Database,
  SvcrcV2Entity,
  SvcrcV2Field,
  SvcrcV2Relationship,
} from './generated/svcrc.generated';
