import { z } from 'zod';
import { DAY, TEXT_MAX } from './tool.ts';

type Json = Record<string, unknown>;

const isPlainType = (branch: unknown): branch is { type: string } =>
  typeof branch === 'object' && branch !== null && Object.keys(branch).length === 1 && typeof (branch as Json).type === 'string';

/**
 * Drops what JSON Schema implies anyway, so tools/list stays small (docs/mcp.md, "Size of the tool
 * list"): `$schema`, `propertyNames: {type: string}`, empty `additionalProperties: {}` and, below
 * the top level (some clients want `properties` there), empty `properties`; the `type` of an
 * `enum` or `const`, whose values say it; a `default` that is the empty value of its type (0,
 * false, "", [], {}); the bounds zod puts on every integer, Number.MAX_SAFE_INTEGER and its
 * negative, which JSON numbers cannot exceed exactly anyway; `minLength: 1`, as a text argument is
 * never meant to be empty, and `maxLength: 200`, the length most text arguments share, which the
 * instructions state once (the server refuses either, naming the argument). The calendar-day pattern becomes
 * `format: "date"`, and an `anyOf` of bare types one `type` list.
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
    if ((key === 'maximum' || key === 'minimum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    if ((key === 'minLength' && value === 1) || (key === 'maxLength' && value === TEXT_MAX)) continue;
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

/** An enum list this long (its JSON) is worth a `$defs` entry when a schema repeats it. */
const SHARED_ENUM_BYTES = 100;

/**
 * A tool's schema with every long enum it repeats (the sources of `filters.source` and
 * `filters.ignore_sources`, the metrics of `metrics` and `sort_by`) written once in `$defs` and
 * referred to by `$ref` beside the property's other keywords (its description), named after the
 * first property that holds it. tools/list sends this form; docs/tools.md reads the plain one.
 */
export function shareRepeatedEnums(schema: Json): Json {
  const seen = new Map<string, { name: string; count: number }>();
  const visit = (node: unknown, name: string, act: (node: Json, name: string) => unknown): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, name, act));
    if (typeof node !== 'object' || node === null) return node;
    const object = node as Json;
    if (Array.isArray(object.enum)) return act(object, name);
    return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, visit(value, key === 'properties' || key === 'items' ? name : key, act)]));
  };
  const enumOf = (node: Json) => JSON.stringify({ enum: node.enum });
  visit(schema, '', (node, name) => {
    const key = enumOf(node);
    if (key.length < SHARED_ENUM_BYTES) return node;
    const entry = seen.get(key) ?? { name, count: 0 };
    entry.count++;
    seen.set(key, entry);
    return node;
  });
  const shared = [...seen].filter(([, entry]) => entry.count > 1);
  if (shared.length === 0) return schema;
  const names = new Map(shared.map(([key, entry]) => [key, entry.name]));
  const out = visit(schema, '', (node) => {
    const name = names.get(enumOf(node));
    if (!name) return node;
    const { enum: _shared, ...rest } = node;
    return { ...rest, $ref: `#/$defs/${name}` };
  }) as Json;
  return { ...out, $defs: Object.fromEntries(shared.map(([key, entry]) => [entry.name, JSON.parse(key)])) };
}

/** The JSON Schema of a tool's arguments, as tools/list and docs/tools.md show it. */
export function jsonSchemaOf(schema: z.ZodObject): Json {
  return compact(z.toJSONSchema(schema, { io: 'input' })) as Json;
}

/**
 * A tool's `outputSchema`: an open object, which is what every result is (a refusal
 * `{error: {code, message}}` included, since clients validate the structured content of refusals
 * too). Its members are declared beside the tool's arguments and listed as "Result" in
 * docs/tools.md; naming them here as well would cost about 1,450 bytes of tools/list, and their
 * types as many again (docs/mcp.md, "Size of the tool list").
 */
export function outputSchemaOf(): Json {
  return { type: 'object' };
}
