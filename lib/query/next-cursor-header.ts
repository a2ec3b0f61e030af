/**
 * The response header of a list answer when more rows follow: the cursor of the next page (the
 * page object also has it as `nextCursor`). Absent on the last page.
 */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';
