/**
 * CSV text (RFC 4180) that is safe to open in a spreadsheet. A spreadsheet runs a cell that
 * starts with one of these as a formula (CSV injection, OWASP's list); text can come from anyone
 * who reaches the collector (utm fields, referrers, cities), so such text gets a leading
 * apostrophe and shows as the text it is. Numbers are our own values and stay numbers.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: quoted when it holds a quote, a comma or a line break; null and undefined are empty. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value !== 'number' && FORMULA_START.test(String(value)) ? `'${String(value)}` : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records of fields as CSV text, each ended by CRLF. */
export function csvText(records: readonly (readonly unknown[])[]): string {
  return records.map((record) => `${record.map(csvCell).join(',')}\r\n`).join('');
}
