/**
 * `.svcrc` as the CLI checks it: the schema's own checks, then those that need the runtime's query
 * validator (the operators and values of `permissions` rules), so the CLI refuses what the app would.
 */
import { analyzeSvcrc as analyzeSchema, type SvcrcAnalysis } from '../../lib/schema/parse-svcrc';
import { checkPermissionRules } from '../../lib/scope/check-permission-rules';

export function analyzeSvcrc(text: string): SvcrcAnalysis {
  const analysis = analyzeSchema(text);
  if (!analysis.result.ok) return analysis;
  const problems = checkPermissionRules(analysis.result.model);
  return problems.length === 0 ? analysis : { raw: analysis.raw, result: { ok: false, problems } };
}
