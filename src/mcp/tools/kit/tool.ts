import { z } from 'zod';
import { NO_WRITE_ACCESS, type Visibility } from '../../../analytics/permissions.ts';
import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { ResultCache } from '../../../kit/result-cache.ts';
import type { AppDatabase } from '../../../store/app-db.ts';
import { AccessDenied } from '../../../kit/errors.ts';
import { boundMessage } from '../../../kit/calendar/range.ts';
import { timeZoneName } from '../../../kit/calendar/zones.ts';

/** Everything a tool may use: the caller's workspace, what it may see, and the stores. */
export interface ToolContext {
  db: AppDatabase;
  ch: Clickhouse;
  /** Reports kept under the workspace's data version (the report core's result cache). */
  results: ResultCache;
  workspaceId: number;
  scopes: string[];
  visibility: Visibility;
  /** Who is acting, for the audit log (`key:<id>` or `oauth:<client>`). */
  actor: string;
  now: () => number;
  /** The workspace's `timezone` setting, read once per call: the zone of every day a tool reads when the caller names none (UTC for a call on no workspace). */
  timeZone: string;
  /** Workspaces of a multi-workspace (OAuth) connection; empty for an API-key connection. */
  workspaces: { id: number; name: string }[];
  /** A signed, expiring link to `/v3/export/<kind>?<query>` for this caller's key and permissions (docs/exports.md). */
  signDownload(kind: string, query: Record<string, string>): { url: string; expiresAt: number };
  /** Whether an assistant is configured to run AI-visibility prompts (`STORELENS_LLM_URL`). */
  assistantConfigured: boolean;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  /**
   * Where the tool's data come from, one sentence for docs/tools.md ("Data:"); not sent in
   * tools/list, whose size is budgeted. "Traffic" is what the pixel and the collector record
   * (docs/collection.md); "orders" come from the shop platforms' webhooks, the order webhook and
   * order imports (docs/integrations.md); "ad rows" from the ad platforms' exports and API pulls.
   */
  dataSource: string;
  /** Strict object schema; every property carries a description, as short as says what it is. */
  input: S;
  /** The result's shape (kit/outputs.ts has the fragments); tools/list sends its members as `outputSchema`. */
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(ctx: ToolContext, input: z.output<S>): Promise<Record<string, unknown>>;
}

/**
 * Well-formed arguments the tool will not act on as they stand (nothing to change, a live form
 * without confirm_live, a full list): a tool result with code `invalid_request`, which the
 * assistant can fix by asking again. Arguments that are wrong in themselves are InvalidInput (-32602).
 */
export class InvalidRequest extends Error {}

const annotations = (title: string, readOnly: boolean, idempotent = readOnly): ToolAnnotations => ({
  title,
  readOnlyHint: readOnly,
  destructiveHint: false,
  idempotentHint: idempotent,
});

type Run<S extends z.ZodObject> = (ctx: ToolContext, input: z.output<S>) => Promise<Record<string, unknown>>;

/** Every write and update tool needs a key with admin:admin or write:drafts (docs/mcp.md). */
const checkedWrite = <S extends z.ZodObject>(run: Run<S>): Run<S> => async (ctx, input) => {
  if (!ctx.visibility.write) throw new AccessDenied(NO_WRITE_ACCESS);
  return run(ctx, input);
};

function defineTool(readOnly: boolean) {
  return <S extends z.ZodObject>(
    name: string,
    title: string,
    description: string,
    dataSource: string,
    input: S,
    output: z.ZodObject,
    run: Run<S>,
  ): ToolDefinition =>
    ({ name, description, dataSource, input, output, annotations: annotations(title, readOnly), run: readOnly ? run : checkedWrite(run) }) as unknown as ToolDefinition;
}

/** A read tool: no side effects. */
export const readTool = defineTool(true);

/** A write tool: adds or changes the named fields only; never deletes. */
export const writeTool = defineTool(false);

// Shared argument fragments, each with the shortest description that still says what it is (every
// property is described, docs/mcp.md "Tools"). Ids travel as strings of digits. The paging and range
// arguments most tools share (limit, offset, date_from, date_to), whose name, type and bounds say
// what they are, are described once, in the server's instructions and docs/tools.md, not in each
// schema (docs/mcp.md, "Size of the tool list").

export const idArg = (what: string) =>
  z.string().regex(/^\d{1,15}$/, { error: `${what} id must be a string of digits` }).describe(`Id of the ${what}`);

/** What the arguments described once mean: the instructions say it, and docs/tools.md shows it in each table. */
export const DESCRIBED_ONCE: Readonly<Record<string, string>> = {
  limit: 'Page size', offset: 'Items to skip', date_from: 'First day', date_to: 'Last day', timezone: 'IANA zone of the days',
};

export const limitArg = z.number().int().min(1).max(500).default(50);
export const offsetArg = z.number().int().min(0).default(0);

/** A calendar day; tools/list shows the pattern as JSON Schema's `format: "date"` (json-schema.ts). */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const dayArg = (name: string) => z.string().regex(DAY, { error: (issue) => boundMessage(name, String(issue.input), 'form', 'day') });
/** A range left out is the last 7 days, today included; every result names the range it covers. */
export const dateFromArg = dayArg('date_from').optional();
export const dateToArg = dayArg('date_to').optional();
/** The zone whose calendar days the range's days are, canonically spelled; left out: the workspace's (ToolContext.timeZone). */
export const timezoneArg = timeZoneName.optional();
/** A tool's date range: whole calendar days of `timezone`. */
export const rangeArgs = { date_from: dateFromArg, date_to: dateToArg, timezone: timezoneArg };

/** The length most text arguments share; tools/list leaves it out and the instructions say it once (json-schema.ts). */
export const TEXT_MAX = 200;
export const shortText = (description: string, max = TEXT_MAX) => z.string().trim().min(1).max(max).describe(description);
export const longText = (description: string, max = 20_000) => z.string().max(max).describe(description);
export const tagsArg = z.array(z.string().trim().min(1).max(60)).max(50).describe('Tags');
