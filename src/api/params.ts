import { z } from 'zod';
import { closestMatch } from 'leven';
import { InvalidInput } from '../kit/errors.ts';
import { describeIssues, issueDetail } from '../kit/zod-issues.ts';
import { PARAMETER_ISSUE } from '../http/errors.ts';
import { DATE_MESSAGE, boundMessage } from '../kit/calendar/range.ts';
import { UTC, timeZoneName } from '../kit/calendar/zones.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, type Page } from '../kit/paging.ts';
import { parseSourceList } from '../analytics/sources.ts';
import { acceptedMessage } from '../kit/choices.ts';

/**
 * Shared query-parameter fragments of the data API. Every fragment carries the contract's
 * error message, so a bad value of any shape (array, garbage, huge) gets that message.
 */

export type RawQuery = Record<string, unknown>;

/** Longest value any text parameter takes; longer input is refused before it reaches SQL. */
const MAX_TEXT = 2000;

/**
 * Copies alias values to their canonical names (the canonical name wins when both are given)
 * and joins repeated list parameters with commas.
 */
export function normalizeQuery(
  raw: unknown,
  options: { aliases?: Record<string, string>; lists?: readonly string[] } = {},
): RawQuery {
  const query: RawQuery = { ...(raw as RawQuery) };
  for (const [alias, canonical] of Object.entries(options.aliases ?? {})) {
    if (query[canonical] === undefined && query[alias] !== undefined) query[canonical] = query[alias];
  }
  for (const list of options.lists ?? []) {
    const value = query[list];
    if (Array.isArray(value)) query[list] = value.join(',');
  }
  return query;
}

export const DATE_ALIASES = { from: 'start_date', to: 'end_date' } as const;
export const PAGE_ALIASES = { page: 'offset', page_size: 'limit' } as const;

export const text = (message: string) => z.string({ error: message }).max(MAX_TEXT, { error: message });

const INTEGER = /^\d+$/;

export const limitParam = z
  .string({ error: 'limit must be a positive integer' })
  .regex(INTEGER, { error: 'limit must be a positive integer' })
  .transform((v) => Math.min(Number(v), MAX_LIMIT))
  .refine((v) => v > 0, { error: 'limit must be a positive integer' })
  .optional()
  .transform((v) => v ?? DEFAULT_LIMIT);

export const offsetParam = z
  .string({ error: 'offset must be a non-negative integer' })
  .regex(INTEGER, { error: 'offset must be a non-negative integer' })
  .transform((v) => Math.min(Number(v), Number.MAX_SAFE_INTEGER))
  .optional()
  .transform((v) => v ?? 0);

const UINT64_MAX = 18446744073709551615n;

/** A UInt64 identifier filter; returned as bigint for binding. */
export const idParam = (name: string) =>
  z
    .string({ error: `${name} must be numeric` })
    .refine((v) => INTEGER.test(v) && v.length <= 20 && BigInt(v) <= UINT64_MAX, { error: `${name} must be numeric` })
    .transform((v) => BigInt(v))
    .optional();

/** No bound is longer (2026-03-01T00:00:00.123456+05:30 is 32 characters). */
const MAX_BOUND = 40;

/**
 * A range bound; its value is read by `resolveRange`, which says what is wrong with it. Refused
 * here, as there, with the contract's message and what is wrong as its detail.
 */
const dateParam = (name: 'start_date' | 'end_date') =>
  z
    .unknown()
    .check((ctx) => {
      const detail = typeof ctx.value !== 'string'
        ? `${name} must be given once`
        : ctx.value.length > MAX_BOUND ? boundMessage(name, ctx.value, 'form', 'day or timestamp') : null;
      if (detail) ctx.issues.push({ code: 'custom', message: DATE_MESSAGE, params: { detail }, input: ctx.value });
    })
    .transform((value) => value as string)
    .optional()
    // What the OpenAPI document shows: on the wire a bound is text.
    .meta({ type: 'string', maxLength: MAX_BOUND });

export const sourceListParam = (accepted: readonly string[]) =>
  z
    .string({ error: 'Invalid source parameter' })
    .max(MAX_TEXT, { error: 'Invalid source parameter' })
    .transform((v) => parseSourceList(v, accepted))
    .optional();

/** An IANA time zone name, in its canonical spelling; UTC when left out. */
export const timezoneParam = timeZoneName
  .optional()
  .transform((zone) => zone ?? UTC);

export const pagingShape = { limit: limitParam, offset: offsetParam };
export const dateShape = { start_date: dateParam('start_date'), end_date: dateParam('end_date') };
/** The date range and the time zone whose calendar days its bare dates (and day buckets) are. */
export const zonedDateShape = { ...dateShape, timezone: timezoneParam };

/** A parameter that must be one of `accepted`; the 400 names the parameter and the accepted values. */
export const choice = <T extends string>(param: string, accepted: readonly [T, ...T[]]) =>
  z.enum(accepted, { error: (issue) => acceptedMessage(param, issue.input, accepted) }).optional();

/** An endpoint's query parameters: their schema, aliases and which ones take repeated values. */
export interface QuerySpec<S extends z.ZodObject = z.ZodObject> {
  schema: S;
  /** Alias -> canonical name. */
  aliases?: Record<string, string>;
  /** Parameters whose repeated values are joined with commas (canonical names and aliases). */
  lists?: readonly string[];
}

/**
 * Parses an endpoint's query after refusing any parameter it does not read (`alsoKnown`: names
 * the caller reads itself, like the dashboard's `workspace`).
 */
export function parseWith<S extends z.ZodObject>(spec: QuerySpec<S>, raw: unknown, alsoKnown: readonly string[] = []): z.output<S> {
  rejectUnknownParameters(raw, [...parameterNames(spec), ...alsoKnown]);
  return parseQuery(spec.schema, normalizeQuery(raw, spec));
}

/** Every parameter name an endpoint reads, aliases included. */
export function parameterNames(spec: QuerySpec): string[] {
  return [...Object.keys(spec.schema.shape), ...Object.keys(spec.aliases ?? {})];
}

/** Longest piece of an unknown name echoed back in the refusal. */
const MAX_NAME_SHOWN = 60;

/**
 * 400 for the first query parameter that is not in `known`, naming it and the nearest known name:
 * one a few typos away (`breakdwon` -> breakdown), or one it is the start of (`start` -> start_date).
 * A misspelled parameter would otherwise be ignored and its default answered as if it were asked for.
 */
export function rejectUnknownParameters(raw: unknown, known: readonly string[]): void {
  const names = new Set(known);
  const unknown = Object.keys((raw ?? {}) as RawQuery).find((name) => !names.has(name));
  if (unknown === undefined) return;
  const shown = unknown.length > MAX_NAME_SHOWN ? `${unknown.slice(0, MAX_NAME_SHOWN)}…` : unknown;
  const nearest = nearestName(unknown.slice(0, MAX_NAME_SHOWN + 1), known);
  throw new InvalidInput(nearest ? `Unknown parameter: ${shown}. Did you mean ${nearest}?` : `Unknown parameter: ${shown}`);
}

function nearestName(name: string, known: readonly string[]): string | undefined {
  const typo = closestMatch(name, known, { maxDistance: Math.min(3, Math.max(1, Math.floor(name.length / 3))) });
  if (typo !== undefined) return typo;
  const bare = name.replace(/\[.*$/, '');
  if (bare !== name && known.includes(bare)) return bare;
  return bare.length >= 2 ? known.find((k) => k.startsWith(`${bare}_`)) : undefined;
}

export function parseQuery<S extends z.ZodType>(schema: S, query: RawQuery): z.output<S> {
  const result = schema.safeParse(query);
  if (!result.success) throw new InvalidInput(describeIssues(result.error, PARAMETER_ISSUE), issueDetail(result.error));
  return result.data;
}

export function pageOf(input: { limit: number; offset: number }): Page {
  return { limit: input.limit, offset: input.offset };
}
