/**
 * fast-check arbitraries for tool arguments, read from each tool's published input schema (the
 * JSON Schema of tools/list): values the schema allows, and values nobody should send.
 */
import fc from 'fast-check';
import { formatDay } from '../../src/kit/calendar/days.ts';
import { jsonSchemaOf } from '../../src/mcp/tools/index.ts';
import type { ToolDefinition } from '../../src/mcp/tools/kit/tool.ts';

type Schema = Record<string, any>;

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

/** An object with an own property of each prototype name, as JSON.parse would make it. */
function ownPrototypeKeys(value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const name of PROTOTYPE_NAMES) Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/** Values that fit no parameter: prototype names, odd unicode, huge and negative numbers, wrong shapes, huge lists. */
export const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, '', ' ', '\uD800', '\uDFFFx', 'a\uD83Db', '\u0000', '\u202e😀', 'x'.repeat(5000), '1e999', '-1', '0x10', 'NaN'),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -1, -0, 0.5, 1e21, -99999999999),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(null, true, false, [], {}, [null], [[]], [[['a']]], ['__proto__'], ownPrototypeKeys(1), ownPrototypeKeys('x')),
  // Lists far past any bound a tool has (the largest takes 200 items).
  fc.constantFrom(Array.from({ length: 10_001 }, (_, i) => `item-${i}`), Array.from({ length: 201 }, () => ({ values: { a: 1 } }))),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 3 }),
);

/** A value the schema accepts (as far as JSON Schema says: refinements in code may still refuse it). */
export function valid(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(valid));
  switch (schema.type) {
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const shape = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, valid(s)]));
      return fc.record(shape, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(valid(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = Math.max(min, Math.min(schema.maxLength ?? 40, 40));
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => formatDay(d.getTime()));
      return fc.string({ minLength: min, maxLength: max }).filter((s) => s.trim().length >= min);
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constant(null);
  }
}

/** Schema-valid arguments of a tool. */
export const validArgs = (tool: ToolDefinition) => valid(jsonSchemaOf(tool.input)) as fc.Arbitrary<Record<string, unknown>>;

/**
 * Arguments of a tool with garbage mixed in: valid values with some members (also nested ones)
 * replaced by garbage, and now and then an extra member with a prototype name.
 */
export function hostileArgs(tool: ToolDefinition): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: spoiled(jsonSchemaOf(tool.input)) },
    { weight: 1, arbitrary: garbage },
  );
}

function spoiled(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.type !== 'object' || !schema.properties) return fc.oneof(valid(schema), garbage);
  const shape = Object.fromEntries(
    Object.entries(schema.properties as Record<string, Schema>).map(([name, s]) => [name, fc.oneof(valid(s), garbage, spoiled(s))]),
  );
  return fc
    .tuple(fc.record(shape, { requiredKeys: [] }), fc.option(fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES), garbage), { freq: 4 }))
    .map(([args, extra]) => {
      if (extra) Object.defineProperty(args, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
      return args;
    });
}
