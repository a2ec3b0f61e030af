import type { SqlContext } from './sql-context';
import type { SqlExecutor } from './sql-executor';

/**
 * The planner's estimate of the rows `SELECT ... FROM <from><where>` matches (`EXPLAIN (FORMAT JSON)`,
 * top node's "Plan Rows"): no row is read. Null when the plan has no usable estimate.
 */
export async function estimateRows(executor: SqlExecutor, from: string, where: string, sql: SqlContext): Promise<number | null> {
  const [row] = await executor.rows(sql.statement(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${from}${where}`, { replica: true }));
  const cell = row?.[0];
  let plan: unknown;
  try {
    plan = typeof cell === 'string' ? JSON.parse(cell) : cell;
  } catch {
    return null;
  }
  const rows = Array.isArray(plan) ? (plan[0] as { Plan?: Record<string, unknown> } | undefined)?.Plan?.['Plan Rows'] : undefined;
  return typeof rows === 'number' && Number.isFinite(rows) && rows >= 0 ? Math.round(rows) : null;
}
