/** A sortable table that downloads as CSV exactly what it shows (columns, rows, order, totals). */
import { html } from 'htm/preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { csvText } from '../kit/csv.ts';
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
  /** Long text that wraps instead of widening the table. */
  wrap?: boolean;
}

export function toCsv(columns: Column[], rows: Row[], totals?: Row): string {
  const records: unknown[][] = [columns.map((c) => c.label)];
  for (const row of rows) records.push(columns.map((c) => (c.display ? c.display(row) : row[c.key])));
  if (totals) records.push(columns.map((c, i) => (i === 0 ? 'Total' : c.kind === 'text' ? '' : totals[c.key])));
  return csvText(records);
}

function saveFile(filename: string, text: string): void {
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

/**
 * Whether the element's content is wider than its box, kept up to date as the box or the content
 * changes size: a table that scrolls sideways says so, or its last columns look like the end.
 */
function useOverflowing() {
  const ref = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  useLayoutEffect(() => {
    const box = ref.current!;
    const measure = () => setOverflowing(box.scrollWidth > box.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { ref, overflowing };
}

/**
 * A table's caption row (with `tools` such as a download button) and the box it scrolls in. A
 * table wider than the box scrolls sideways inside it, and the caption row then says so.
 */
export function TableBox(props: { caption: string; tools?: unknown; children: unknown }) {
  const scroll = useOverflowing();
  return html`<div class="table-tools">
      <h2>${props.caption}</h2>
      ${scroll.overflowing && html`<p class="scroll-cue" data-testid="scroll-cue">More columns: scroll sideways →</p>`}
      ${props.tools}
    </div>
    <div class=${scroll.overflowing ? 'table-scroll overflowing' : 'table-scroll'} ref=${scroll.ref} tabindex=${scroll.overflowing ? 0 : undefined}
      aria-label=${scroll.overflowing ? `${props.caption}, scrolls sideways` : undefined} role=${scroll.overflowing ? 'region' : undefined}>
      ${props.children}
    </div>`;
}

/** `filename` adds a CSV download of what the table shows (left out where the page may not download, as in a sandboxed frame). */
export function Table(props: { caption: string; columns: Column[]; rows: Row[]; totals?: Row; filename?: string; empty?: string }) {
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 } | null>(null);
  const sorted = sort && props.columns.find((c) => c.key === sort.key);
  // Row fields carry integers as strings (the API's wire form): numeric columns sort them as numbers.
  const sortValue = (row: Row) => (sorted!.kind === 'text' || row[sorted!.key] == null ? row[sorted!.key] : Number(row[sorted!.key]));
  const rows = sorted ? [...props.rows].sort((a, b) => compare(sortValue(a), sortValue(b)) * sort.dir) : props.rows;
  const toggle = (key: string) =>
    setSort(sort?.key === key ? { key, dir: sort.dir === 1 ? -1 : 1 } : { key, dir: props.columns.find((c) => c.key === key)?.kind === 'text' ? 1 : -1 });
  const ariaSort = (key: string) => (sort?.key !== key ? 'none' : sort.dir === 1 ? 'ascending' : 'descending');
  const cell = (c: Column, row: Row) => {
    const text = c.display ? c.display(row) : formatValue(row[c.key], c.kind);
    return c.onOpen ? html`<button type="button" class="link" onClick=${() => c.onOpen!(row)}>${text}</button>` : text;
  };
  const downloadButton = props.filename && html`<button type="button" class="secondary" onClick=${() => saveFile(props.filename!, toCsv(props.columns, rows, props.totals))}>Download CSV</button>`;
  return html`<div class="table-block">
    <${TableBox} caption=${props.caption} tools=${downloadButton}>
      <table>
        <thead><tr>${props.columns.map((c) => html`<th scope="col" aria-sort=${ariaSort(c.key)} class=${c.kind === 'text' ? '' : 'num'}>
          <button type="button" class="sort" onClick=${() => toggle(c.key)}>${c.label}${sort?.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</button>
        </th>`)}</tr></thead>
        <tbody>${rows.length === 0
          ? html`<tr><td colspan=${props.columns.length} class="empty">${props.empty ?? 'No rows for these filters.'}</td></tr>`
          : rows.map((row) => html`<tr>${props.columns.map((c) => html`<td class=${c.wrap ? 'wrap' : c.kind === 'text' ? '' : 'num'}>${cell(c, row)}</td>`)}</tr>`)}</tbody>
        ${props.totals && html`<tfoot><tr>${props.columns.map((c, i) => html`<td class=${c.kind === 'text' ? '' : 'num'}>${i === 0 ? 'Total' : c.kind === 'text' ? '' : formatValue(props.totals![c.key], c.kind)}</td>`)}</tr></tfoot>`}
      </table>
    <//>
  </div>`;
}
