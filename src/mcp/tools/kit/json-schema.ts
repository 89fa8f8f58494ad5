import { z } from 'zod';
import { DAY, type ToolDefinition } from './tool.ts';

type Json = Record<string, unknown>;

const isPlainType = (branch: unknown): branch is { type: string } =>
  typeof branch === 'object' && branch !== null && Object.keys(branch).length === 1 && typeof (branch as Json).type === 'string';

/**
 * Drops what JSON Schema implies anyway, so tools/list stays small (docs/mcp.md, "Size of the tool
 * list"): `$schema`, `propertyNames: {type: string}`, empty `additionalProperties: {}` and, below
 * the top level (some clients want `properties` there), empty `properties`; the `type` of an
 * `enum` or `const`, whose values say it; a `default` that is the empty value of its type (0,
 * false, "", [], {}). The calendar-day pattern becomes `format: "date"`, and an `anyOf` of bare
 * types one `type` list.
 */
function compact(node: unknown, root = true): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, false));
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'propertyNames' && isPlainType(value) && value.type === 'string') continue;
    const empty = typeof value === 'object' && value !== null && Object.keys(value).length === 0;
    if (empty && (key === 'additionalProperties' || (key === 'properties' && !root))) continue;
    if (key === 'default' && (empty || value === 0 || value === false || value === '')) continue;
    if (key === 'pattern' && value === DAY.source) {
      out.format = 'date';
      continue;
    }
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Json).map(([name, schema]) => [name, compact(schema, false)])) : compact(value, false);
  }
  if ('enum' in out || 'const' in out) delete out.type;
  if (Array.isArray(out.anyOf) && out.anyOf.every(isPlainType)) {
    out.type = out.anyOf.map((branch) => (branch as { type: string }).type);
    delete out.anyOf;
  }
  return out;
}

/** The JSON Schema of a tool's arguments, as tools/list and docs/tools.md show it. */
export function jsonSchemaOf(schema: z.ZodObject): Json {
  return compact(z.toJSONSchema(schema, { io: 'input' })) as Json;
}

/**
 * A tool's `outputSchema`: the result's members and the type of each, no deeper (docs/mcp.md,
 * "Size of the tool list"); docs/tools.md lists the fields inside them. Nothing is `required`
 * and other members are not refused, because a refusal is `{error: {code, message}}` instead
 * (a result with `isError: true`), and clients validate the structured content of refusals too.
 */
export function outputSchemaOf(tool: ToolDefinition): Json {
  const { properties } = jsonSchemaOf(tool.output) as { properties: Record<string, Json> };
  return { type: 'object', properties: Object.fromEntries(Object.entries(properties).map(([name, member]) => [name, { type: member.type }])) };
}
