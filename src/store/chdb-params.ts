/**
 * Query parameters as session settings. The chdb binding runs every query with bound parameters
 * on one process-wide chain, one at a time; a query without bound parameters runs on its own
 * connection in parallel. So a pooled session receives its values as `SET param_<name> = '<text>'`
 * and then runs the query text, whose `{name:Type}` placeholders the engine substitutes exactly
 * as it does for bound values: no value ever enters the query text.
 *
 * The `<text>` is what ClickHouse's HTTP interface takes in `param_<name>`: a top-level string in
 * the escaped (TSV) text format, anything else as its literal (arrays as `['a','b']`). That text
 * is then written as one SQL string literal.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):/g;

const SQL_ESCAPES: Record<string, string> = {
  '\\': '\\\\', "'": "\\'", '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
};
const TSV_ESCAPES: Record<string, string> = {
  '\\': '\\\\', '\0': '\\0', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
};

const escapeWith = (text: string, escapes: Record<string, string>) => text.replace(/[\\'\0\b\f\n\r\t]/g, (c) => escapes[c] ?? c);

/** A single-quoted ClickHouse string literal. */
export const sqlString = (text: string) => `'${escapeWith(text, SQL_ESCAPES)}'`;

/** A value bound to a `{name:Type}` placeholder. 64-bit ids travel as bigint. */
export type ParamValue = string | number | bigint | boolean | ReadonlyArray<string | number | bigint>;

function literal(value: ParamValue): string {
  if (typeof value === 'string') return sqlString(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot bind the number ${value}`);
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) throw new TypeError(`cannot bind ${value} exactly: pass a bigint`);
    return Object.is(value, -0) ? '-0' : String(value);
  }
  return `[${value.map(literal).join(',')}]`;
}

/** The parameter's text form (what `param_<name>` carries over HTTP). */
export function paramText(value: ParamValue): string {
  return typeof value === 'string' ? escapeWith(value, TSV_ESCAPES) : literal(value);
}

/** Names of the `{name:Type}` placeholders in a statement. */
export function placeholderNames(sql: string): Set<string> {
  return new Set(Array.from(sql.matchAll(PLACEHOLDER), (m) => m[1]));
}

/**
 * One `SET` that gives every placeholder of `sql` its value, or null when it has none. A
 * placeholder without a value is refused here: on a pooled session it would otherwise read a
 * value an earlier query left behind.
 */
export function setParamsSql(sql: string, params: Record<string, ParamValue>): string | null {
  const assignments: string[] = [];
  for (const name of placeholderNames(sql)) {
    if (!NAME.test(name) || !Object.hasOwn(params, name)) throw new TypeError(`query parameter ${name} has no value`);
    assignments.push(`param_${name} = ${sqlString(paramText(params[name]))}`);
  }
  return assignments.length ? `SET ${assignments.join(', ')}` : null;
}
