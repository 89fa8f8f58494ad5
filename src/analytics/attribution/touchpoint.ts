/**
 * A touchpoint as the attribution SQL sees it: one named tuple per session of the buyer. The
 * path of a conversion is an `Array(Touch)`; every model maps that array to an array of weights
 * of the same length, so attribution runs inside ClickHouse.
 */
export const TOUCH_FIELDS = [
  ['ts', "DateTime64(3, 'UTC')"],
  ['session_id', 'UInt64'],
  ['channel', 'String'],
  ['source', 'String'],
  ['campaign', 'String'],
  ['adgroup', 'String'],
  ['ad', 'String'],
  ['utm_source', 'String'],
  ['utm_campaign', 'String'],
  ['utm_medium', 'String'],
  ['utm_term', 'String'],
  ['utm_content', 'String'],
  ['referrer', 'String'],
  ['landing_page', 'String'],
] as const;

export type TouchField = (typeof TOUCH_FIELDS)[number][0];

/** What every model and the window need; breakdowns add the fields they group by. */
export const BASE_TOUCH_FIELDS: readonly TouchField[] = ['ts', 'session_id', 'channel', 'source'];

/** The named tuple type holding `fields` (all of them by default), in TOUCH_FIELDS order. */
export function touchType(fields: readonly TouchField[] = TOUCH_FIELDS.map(([name]) => name)): string {
  const chosen = TOUCH_FIELDS.filter(([name]) => fields.includes(name));
  return `Tuple(${chosen.map(([name, type]) => `${name} ${type}`).join(', ')})`;
}

/**
 * Builds a Touch from expressions named per field (missing fields are ''). With `fields`, the
 * tuple carries only those: a report grouped by source need not drag landing pages through
 * every stage.
 */
export function touchSql(values: Partial<Record<TouchField, string>>, fields?: readonly TouchField[]): string {
  const chosen = TOUCH_FIELDS.filter(([name]) => !fields || fields.includes(name));
  const parts = chosen.map(([name, type]) => values[name] ?? (type === 'String' ? "''" : `CAST(0 AS ${type})`));
  return `CAST(tuple(${parts.join(', ')}), '${touchType(chosen.map(([name]) => name)).replace(/'/g, "\\'")}')`;
}

/** Channels that do not count as a paid touch for total_impact. */
export const LOW_INTENT_SOURCES = ['email', 'organic'] as const;
