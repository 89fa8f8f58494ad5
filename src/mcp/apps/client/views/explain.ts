/**
 * attribution.explain's result as the dashboard's "why" panel of an order (every model's share per
 * source, the Markov removal effects), after the order's touchpoints.
 */
import { html } from 'htm/preact';
import { Table, type Column, type Row } from '../../../../ui/table.ts';
import { WhyTables, type WhyAnswer } from '../../../../ui/why-tables.ts';
import { label, withName } from '../../../../ui/format.ts';
import { NAMED_BREAKDOWNS } from '../../../../kit/vocabulary.ts';

export interface ExplainResult {
  attribution: WhyAnswer & { transaction_id: string; dt: string; revenue: number; touchpoints: Row[] };
}

const TOUCH_COLUMNS: Column[] = [
  { key: 'started_at', label: 'Session start (UTC)', kind: 'text' },
  { key: 'source', label: 'Source', kind: 'text' },
  { key: 'raw_source', label: 'Referrer source', kind: 'text' },
  ...NAMED_BREAKDOWNS.map((key): Column => ({
    key, label: label(key), kind: 'text', display: (row) => withName(String(row[key] ?? ''), row[`${key}_name`] as string | undefined) || '(none)',
  })),
];

export function Explain({ data }: { data: ExplainResult }) {
  const a = data.attribution;
  return html`
    <p class="note">Order ${a.transaction_id} at ${a.dt} (UTC), revenue ${a.revenue.toFixed(2)}, last session from ${a.source || '(none)'}</p>
    <${Table} caption="Touchpoints" columns=${TOUCH_COLUMNS} rows=${a.touchpoints} empty="No touchpoint in the window: the order goes to organic." />
    <${WhyTables} answer=${a} downloads=${false} />`;
}
