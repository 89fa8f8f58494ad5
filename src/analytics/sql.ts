import type { QueryParams } from '../store/clickhouse.ts';
import { formatTimestampMs } from '../kit/calendar/days.ts';
import type { Page } from '../kit/paging.ts';

/**
 * A row read as one ordered statement with its bound values, not yet paged: the row endpoints
 * read a page of it (`paged`), the bulk export streams all of it.
 */
export interface Statement {
  sql: string;
  params: QueryParams;
}

/** The statement's page: `limit + 1` rows from `offset` (the extra row only tells whether another page exists). */
export function paged(statement: Statement, page: Page): Statement {
  return {
    sql: `${statement.sql}\nLIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
    params: { ...statement.params, limit: page.limit + 1, offset: page.offset },
  };
}

/** Collects WHERE clauses and their bound values; no value ever enters the SQL text. */
export class Conditions {
  readonly clauses: string[] = [];
  readonly params: QueryParams = {};

  add(clause: string, params: QueryParams = {}): this {
    this.clauses.push(clause);
    Object.assign(this.params, params);
    return this;
  }

  /** Adds the clause only when `value` is defined. */
  addIf<V>(value: V | undefined | null, clause: string, params: (v: V) => QueryParams): this {
    return value === undefined || value === null ? this : this.add(clause, params(value));
  }

  sql(): string {
    return this.clauses.length ? this.clauses.join('\n  AND ') : '1';
  }
}

/** Binds a millisecond timestamp to a `{name:DateTime64(3, 'UTC')}` placeholder. */
export function timestampParam(ms: number): string {
  return formatTimestampMs(ms);
}

/** A name pattern as a LIKE pattern, a name without `*` included (it then matches itself only). */
const asLike = (pattern: string) => pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');

/**
 * Turns an event-name pattern into a LIKE pattern: `*` matches any run of characters and every
 * other character is literal (so `_` and `%` are escaped). Null when the pattern has no `*`.
 */
export function likePattern(pattern: string): string | null {
  if (!pattern.includes('*')) return null;
  return asLike(pattern);
}

/** Patterns that match every name: a list holding them needs no condition. */
export const EVERY_NAME: readonly string[] = ['*'];

/**
 * Adds a condition that `column` matches one of `patterns` (`*` wildcards, as addNameFilter),
 * bound as `counted_names`; none when a pattern is `*` alone.
 */
export function addNamePatterns(where: Conditions, column: string, patterns: readonly string[]): void {
  if (patterns.includes('*')) return;
  where.add(`arrayExists(p -> ${column} LIKE p, {counted_names:Array(String)})`, { counted_names: patterns.map(asLike) });
}

/** Adds an exact or wildcard name condition on `column`. */
export function addNameFilter(where: Conditions, column: string, pattern: string | undefined): void {
  if (pattern === undefined) return;
  const like = likePattern(pattern);
  if (like === null) where.add(`${column} = {name:String}`, { name: pattern });
  else where.add(`${column} LIKE {name:String}`, { name: like });
}

export const TIMESTAMP_OUT = (column: string) => `toString(toDateTime(${column}, 'UTC'))`;

/** The calendar day of a timestamp column in the range's zone; bind `tz` to `range.timeZone`. */
export const LOCAL_DATE = (column: string) => `toDate(${column}, {tz:String})`;
