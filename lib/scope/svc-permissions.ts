/**
 * The caller's `permissions` as a CASL `Ability`, for code of your own: a custom route asks
 * `abilityFor(auth).can('update', subject('Task', task))` and gets the answer the generated routes
 * give. The same rules, packed, are what `GET /api/auth/permissions` sends to front ends.
 */
import { Inject, Injectable } from '@nestjs/common';
import { buildMongoQueryMatcher, createMongoAbility, type MongoAbility } from '@casl/ability';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { ServiceModel } from '../schema/model';
import { SVC_MODEL } from '../svc.constants';
import { AbilityRules, type SvcAbilityRule } from './ability-rules';

/**
 * CASL's matcher, reading a `Date` (as services return instants) as the ISO text the API answers and
 * the rules compare with, so records from your own code and from HTTP get the same answers.
 */
const conditionsMatcher = buildMongoQueryMatcher(
  {},
  {},
  {
    get: (object: Record<string, unknown>, field: string): unknown => {
      const value = object[field];
      return value instanceof Date ? value.toISOString() : value;
    },
  },
);

@Injectable()
export class SvcPermissions {
  private readonly rules: AbilityRules;

  constructor(@Inject(SVC_MODEL) model: ServiceModel) {
    this.rules = new AbilityRules(model);
  }

  /**
   * A CASL ability over the entities of `.svcrc` (subjects are entity names; actions `read`,
   * `create`, `update`, `delete`) for the caller; `null` (no caller) is granted only what entities
   * without `permissions` allow.
   */
  abilityFor(auth: AuthContext | null): MongoAbility {
    return createMongoAbility(this.rulesFor(auth), { conditionsMatcher });
  }

  /** The caller's rules, as `createMongoAbility()` takes them. */
  rulesFor(auth: AuthContext | null): SvcAbilityRule[] {
    return this.rules.rulesFor(auth);
  }
}
