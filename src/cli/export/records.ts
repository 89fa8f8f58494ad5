/**
 * Where the rows of an export's byte stream end, chunk by chunk, so that a resumable file only
 * ever counts whole rows: `records` ended in the chunk, and `lastEnd` the offset in the chunk just
 * past the last of them (-1 when none ended in it).
 */
export type RecordCounter = (chunk: Uint8Array) => { records: number; lastEnd: number };

const LF = 0x0a;
const QUOTE = 0x22;

/** NDJSON: JSON escapes line breaks inside values, so every LF ends a row. */
export function ndjsonRecords(): RecordCounter {
  return (chunk) => {
    let records = 0;
    let lastEnd = -1;
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) {
      records++;
      lastEnd = at + 1;
    }
    return { records, lastEnd };
  };
}

/**
 * RFC 4180 CSV: a LF ends a record unless it is inside a quoted field. A doubled quote inside a
 * field toggles twice, so counting quotes tells inside from outside; the state carries over from
 * one chunk to the next.
 */
export function csvRecords(): RecordCounter {
  let quoted = false;
  return (chunk) => {
    let records = 0;
    let lastEnd = -1;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === LF && !quoted) {
        records++;
        lastEnd = i + 1;
      }
    }
    return { records, lastEnd };
  };
}
