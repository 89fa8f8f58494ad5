/**
 * Text from outside as well-formed Unicode. A JSON string may escape half of a UTF-16 surrogate
 * pair (`"\ud800"`), which is no character: SQLite stores it as U+FFFD, PostgreSQL and the
 * analytics store refuse it, and a comparison with what was stored then fails. Each surface makes
 * the text it parses well-formed once, where it parses it (docs/security.md, "Hostile input"), so
 * every check and every store downstream sees the text that is kept.
 */

// With the `u` flag a surrogate pair is one code point, so only unpaired halves match.
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATE_ALL = /\p{Surrogate}/gu;

/** Lone surrogates become U+FFFD, as `String.prototype.toWellFormed` does. */
export function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATE_ALL, '\uFFFD') : text;
}

/**
 * A parsed JSON value with every string in it, object keys included, well-formed; changed in
 * place (it is the caller's fresh parse). Walked with a stack, not recursion: a megabyte body may
 * nest far deeper than the call stack.
 */
export function wellFormedValue<T>(value: T): T {
  if (typeof value === 'string') return wellFormed(value) as T;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'string') record[key] = wellFormed(item);
      else if (item !== null && typeof item === 'object') pending.push(item);
      const fixed = Array.isArray(node) ? key : wellFormed(key);
      if (fixed !== key) {
        Object.defineProperty(record, fixed, { value: record[key], enumerable: true, writable: true, configurable: true });
        delete record[key];
      }
    }
  }
  return value;
}
