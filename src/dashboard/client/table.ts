/** A sortable table that downloads as CSV exactly what it shows (columns, rows, order, totals). */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { formatValue, type Kind } from './format.ts';

export type Row = Record<string, unknown>;

export interface Column {
  key: string;
  label: string;
  kind: Kind;
  /** Makes the cell a button (drill-down, details). */
  onOpen?: (row: Row) => void;
  /** Text shown instead of the raw value (e.g. a name beside an id); the CSV keeps both. */
  display?: (row: Row) => string;
}

/**
 * A spreadsheet reads a cell that starts with one of these as a formula (CSV injection). Text in
 * these tables can come from anyone who visits the shop (utm fields reach the unauthenticated
 * collector), so such text is prefixed with an apostrophe and shows as the text it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Numbers are the API's own values: a negative amount stays a number.
  const text = typeof value !== 'number' && FORMULA_START.test(String(value)) ? `'${String(value)}` : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(columns: Column[], rows: Row[], totals?: Row): string {
  const lines = [columns.map((c) => csvCell(c.label))];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.display ? c.display(row) : row[c.key])));
  if (totals) lines.push(columns.map((c, i) => csvCell(i === 0 ? 'Total' : c.kind === 'text' ? '' : totals[c.key])));
  return `${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}

function download(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export function Table(props: { caption: string; columns: Column[]; rows: Row[]; totals?: Row; filename: string; empty?: string }) {
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 } | null>(null);
  const rows = sort ? [...props.rows].sort((a, b) => compare(a[sort.key], b[sort.key]) * sort.dir) : props.rows;
  const toggle = (key: string) =>
    setSort(sort?.key === key ? { key, dir: sort.dir === 1 ? -1 : 1 } : { key, dir: props.columns.find((c) => c.key === key)?.kind === 'text' ? 1 : -1 });
  const ariaSort = (key: string) => (sort?.key !== key ? 'none' : sort.dir === 1 ? 'ascending' : 'descending');
  const cell = (c: Column, row: Row) => {
    const text = c.display ? c.display(row) : formatValue(row[c.key], c.kind);
    return c.onOpen ? html`<button type="button" class="link" onClick=${() => c.onOpen!(row)}>${text}</button>` : text;
  };
  return html`<div class="table-block">
    <div class="table-tools">
      <h2>${props.caption}</h2>
      <button type="button" class="secondary" onClick=${() => download(props.filename, toCsv(props.columns, rows, props.totals))}>Download CSV</button>
    </div>
    <div class="table-scroll">
      <table>
        <thead><tr>${props.columns.map((c) => html`<th scope="col" aria-sort=${ariaSort(c.key)} class=${c.kind === 'text' ? '' : 'num'}>
          <button type="button" class="sort" onClick=${() => toggle(c.key)}>${c.label}${sort?.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</button>
        </th>`)}</tr></thead>
        <tbody>${rows.length === 0
          ? html`<tr><td colspan=${props.columns.length} class="empty">${props.empty ?? 'No rows for these filters.'}</td></tr>`
          : rows.map((row) => html`<tr>${props.columns.map((c) => html`<td class=${c.kind === 'text' ? '' : 'num'}>${cell(c, row)}</td>`)}</tr>`)}</tbody>
        ${props.totals && html`<tfoot><tr>${props.columns.map((c, i) => html`<td class=${c.kind === 'text' ? '' : 'num'}>${i === 0 ? 'Total' : c.kind === 'text' ? '' : formatValue(props.totals![c.key], c.kind)}</td>`)}</tr></tfoot>`}
      </table>
    </div>
  </div>`;
}
