/**
 * The response header of every list answer giving the number of rows the query matched. A plain
 * array has nowhere in its body to say how many rows its limit left out; this is where it says so.
 */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
