/**
 * Semantic checks: what the JSON Schema cannot say (references between entities, names that
 * collide, defaults of the right type). They read the lenient `RawSvcrc`, so they run, and stay
 * quiet about what the JSON Schema already reports, even on a file that fails it.
 */
import { CheckContext } from './check-context';
import { checkEntities } from './check-entities';
import { checkFields } from './check-fields';
import { checkRelationships } from './check-relationships';
import { checkScopesAndJoins } from './check-scope';
import { checkSettings } from './check-settings';
import type { RawSvcrc } from './raw-svcrc.types';
import type { SvcrcProblem } from './svcrc.errors';

export function checkSvcrc(raw: RawSvcrc): SvcrcProblem[] {
  const ctx = new CheckContext(raw);
  checkEntities(ctx);
  checkFields(ctx);
  checkRelationships(ctx);
  checkScopesAndJoins(ctx);
  checkSettings(ctx);
  return ctx.problems;
}
