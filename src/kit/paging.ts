import { formatTimestamp } from './calendar/days.ts';
import type { Range } from './calendar/range.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

export interface Page {
  limit: number;
  offset: number;
}

export interface PageInfo {
  limit: number;
  offset: number;
  has_more: boolean;
  next_offset: number | null;
}

/**
 * Queries ask for `limit + 1` rows; the extra row only tells whether another page exists.
 */
export function slicePage<T>(rows: T[], page: Page): { data: T[]; pagination: PageInfo } {
  const hasMore = rows.length > page.limit;
  return {
    data: hasMore ? rows.slice(0, page.limit) : rows,
    pagination: {
      limit: page.limit,
      offset: page.offset,
      has_more: hasMore,
      next_offset: hasMore ? page.offset + page.limit : null,
    },
  };
}

export function rangeInfo(range: Range): { start_date: string; end_date: string } {
  return { start_date: formatTimestamp(range.startMs), end_date: formatTimestamp(range.endMs) };
}

/** The row-level envelope: a page of rows plus the queried range. */
export function rangePage<T>(rows: T[], page: Page, range: Range) {
  const { data, pagination } = slicePage(rows, page);
  return { data, pagination: { ...pagination, ...rangeInfo(range) } };
}
