/**
 * A caller's effective `permissions` as CASL rules: subjects are entity names, actions the four
 * operations, `fields` the rule's fields and `conditions` its rows, with the caller's `$auth.*`
 * values in place and every value typed as the API's records carry it. The generated routes and
 * these rules answer the same question for a record of the caller's scope:
 *
 * - `read`: a role's `where`, with its `fields`;
 * - `update` and `delete`: a role's `where` AND the record being readable (a row the caller cannot
 *   read is a 404 for the API, so never `can`);
 * - `create`: a role's `check`, which a new record must meet (`set` values, forced by the API, are
 *   judged as the record carries them). `update`'s `check` is about the row after the write, which
 *   CASL's `update` rule cannot describe: it is left to the API's 403.
 *
 * An entity without `permissions` is granted every operation, or none under
 * `auth.permissionsDefault: "deny"`; `bypassRoles` play no part. The tenant scope is not in the
 * rules: they answer for records of the caller's own scope, as the API returns them.
 */
import type { AuthContext } from '../interfaces/auth-context.interface';
import { PERMISSION_OPERATIONS, type EntityModel, type PermissionOperation, type ServiceModel } from '../schema/model';
import { abilityConditions, bothConditions, MAX_CONJUNCTIONS, type AbilityConditions } from './ability-conditions';
import { type CallerRule, PermissionRules } from './permission-rules';

/** One CASL rule, as `createMongoAbility()` takes it and `packRules()` packs it. */
export interface SvcAbilityRule {
  readonly action: PermissionOperation;
  /** The entity's name. */
  readonly subject: string;
  readonly conditions?: AbilityConditions;
  readonly fields?: string[];
}

export class AbilityRules {
  private readonly rules: PermissionRules;

  constructor(private readonly model: ServiceModel) {
    this.rules = new PermissionRules(model, new Map(model.entities.map((entity) => [entity.name, entity])));
  }

  /** The caller's rules for every entity of the model, in model order, then by operation. */
  rulesFor(auth: AuthContext | null): SvcAbilityRule[] {
    return this.model.entities.flatMap((entity) => this.entityRules(entity, auth));
  }

  private entityRules(entity: EntityModel, auth: AuthContext | null): SvcAbilityRule[] {
    const request = { auth };
    const readRules = this.rules.callerRules(entity, request, 'read');
    // Which rows are readable, for update and delete; null: every row (in scope).
    const readable =
      readRules === null || readRules.some((rule) => rule.where === null)
        ? null
        : readRules.flatMap((rule) => abilityConditions(rule.where));
    const out: SvcAbilityRule[] = [];
    for (const action of PERMISSION_OPERATIONS) {
      const callerRules = action === 'read' ? readRules : this.rules.callerRules(entity, request, action);
      if (callerRules === null) {
        out.push({ action, subject: entity.name });
        continue;
      }
      for (const rule of callerRules) {
        // CASL refuses an empty field list: a rule granting no field is left out (the ability refuses, never grants, more).
        if (rule.fields !== null && rule.fields.size === 0) continue;
        for (const conditions of this.conditionsOf(action, rule, readable)) {
          out.push({
            action,
            subject: entity.name,
            ...(Object.keys(conditions).length > 0 ? { conditions } : {}),
            ...(rule.fields !== null ? { fields: [...rule.fields] } : {}),
          });
        }
      }
    }
    return out;
  }

  private conditionsOf(action: PermissionOperation, rule: CallerRule, readable: AbilityConditions[] | null): AbilityConditions[] {
    if (action === 'read') return abilityConditions(rule.where);
    if (action === 'create') return abilityConditions(rule.check);
    const own = abilityConditions(rule.where);
    return readable === null ? own : bothConditions(own, readable.slice(0, MAX_CONJUNCTIONS));
  }
}
