/**
 * The response header of every list answer giving the number of rows the query matched. A plain
 * array has nowhere in its body to say how many rows its limit left out; this is where it says so.
 */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/**
 * Sent (`true`) with `X-Total-Count` when the count is capped: `count=estimated` for a caller the tenant
 * scope restricts, whose list matched more rows than `api.pagination.estimatedCountThreshold`. The count
 * is then that threshold and means "at least this many".
 */
export const TOTAL_COUNT_CAPPED_HEADER = 'X-Total-Count-Capped';
