import type { Range } from '../kit/paging.ts';

/**
 * What one analytics read covers: the workspace (the `store_id` column and bound parameter), the
 * date range, and the raw channels its rows may carry (`adv_source` on the pixel side, `source`
 * on ads rows), already narrowed to what the caller may see. Each surface builds it once per
 * request from its credentials (src/api/scope.ts, src/mcp/tools/scope.ts); queries read it as is.
 */
export interface QueryScope {
  workspaceId: number;
  range: Range;
  /** Null: every channel (an unrestricted key that filters none). */
  channels: string[] | null;
}
