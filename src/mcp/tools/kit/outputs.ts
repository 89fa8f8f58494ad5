import { z } from 'zod';

/**
 * Fragments of the tools' result shapes. Each tool declares its result beside its arguments
 * (`output` of readTool and writeTool). tools/list sends only its members and their
 * types as the tool's MCP `outputSchema` (json-schema.ts), which clients such as the official SDK
 * validate `structuredContent` against; docs/tools.md lists the fields below them. Computed results
 * list their fields with types; stored objects (notes, lists, offers, ...) are plain objects, whose
 * fields the tool descriptions name. test/mcp/output-schemas.test.ts calls every tool through the
 * SDK client and checks each result against the whole shape, to keep the two in step.
 */

export const str = z.string();
export const num = z.number();
export const bool = z.boolean();
export const numOrNull = z.number().nullable();
export const strs = z.array(str);
/** An object whose fields are not spelled out: report rows and totals (metric names vary), settings, cells. */
export const open = z.looseObject({});
export const fields = <T extends z.ZodRawShape>(shape: T) => z.object(shape).partial();
export const list = <T extends z.ZodRawShape>(shape: T) => z.array(fields(shape));

export const range = { date_from: str, date_to: str, timezone: str };
export const period = { start_date: str, end_date: str };
/** Which conversion names a result counted (docs/attribution.md, "Counted conversion names"). */
export const namesApplied = fields({ conversion_names: strs });
/** A stored object (note, list, offer, ...): id as a string, its fields, timestamps; not spelled out. */
export const stored = open;
export const storedList = z.array(open);
export const modelResult = z.record(str, fields({ revenue: num, conversions: num, spend: num, roas: numOrNull, cpa: numOrNull }));
