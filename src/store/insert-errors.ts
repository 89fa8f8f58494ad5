/**
 * Tells an insert the analytics store refused because of the rows themselves from one that failed
 * because the store could not take it now. Only the first kind may be set aside (the collector
 * moves such rows to its dead-letter file, docs/operations.md); the second is retried in order.
 * Both transports report ClickHouse's error code: chDB in the message (`Code: 72. DB::Exception:
 * ...`), @clickhouse/client as `code`. An error without a code (a refused connection, a timeout)
 * means the store is unavailable.
 */

/**
 * Codes that mean "this data cannot go into this table" and fail the same way on every retry.
 * Any other code (MEMORY_LIMIT_EXCEEDED, TOO_MANY_PARTS, TABLE_IS_READ_ONLY, NOT_ENOUGH_SPACE,
 * UNKNOWN_TABLE, TIMEOUT_EXCEEDED, NETWORK_ERROR, ...) is treated as the store being unavailable.
 */
const REFUSED_ROW_CODES: Readonly<Record<number, string>> = {
  6: 'CANNOT_PARSE_TEXT',
  25: 'CANNOT_PARSE_ESCAPE_SEQUENCE',
  26: 'CANNOT_PARSE_QUOTED_STRING',
  27: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
  32: 'ATTEMPT_TO_READ_AFTER_EOF',
  38: 'CANNOT_PARSE_DATE',
  41: 'CANNOT_PARSE_DATETIME',
  53: 'TYPE_MISMATCH',
  69: 'ARGUMENT_OUT_OF_BOUND',
  70: 'CANNOT_CONVERT_TYPE',
  72: 'CANNOT_PARSE_NUMBER',
  117: 'INCORRECT_DATA',
  131: 'TOO_LARGE_STRING_SIZE',
  190: 'SIZES_OF_ARRAYS_DONT_MATCH',
  321: 'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
  349: 'CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN',
  407: 'DECIMAL_OVERFLOW',
  467: 'CANNOT_PARSE_BOOL',
};

interface Refusal {
  code: number;
  message: string;
}

function errorCode(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code);
  const inMessage = /^Code: (\d+)\./.exec(error.message);
  return inMessage ? Number(inMessage[1]) : null;
}

/** The refusal when the store refused the rows themselves; null when it was unavailable. */
export function refusedRows(error: unknown): Refusal | null {
  const code = errorCode(error);
  if (code === null || !(code in REFUSED_ROW_CODES)) return null;
  return { code, message: (error as Error).message.trim() };
}
