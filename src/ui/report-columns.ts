import { isNamedBreakdown } from '../kit/vocabulary.ts';
import { label } from './format.ts';
import type { Column, Row } from './table.ts';

/** The columns that name a row: its breakdown key, with the source and the name beside an ad id. */
export function keyColumns(breakdown: string, drill?: (row: Row) => void): Column[] {
  const named = isNamedBreakdown(breakdown);
  const cols: Column[] = [];
  if (named) cols.push({ key: 'source', label: 'Source', kind: 'text' });
  cols.push({
    key: breakdown,
    label: label(breakdown),
    kind: 'text',
    onOpen: drill,
    display: named ? (row) => `${row[`${breakdown}_name`] || '(no name)'} · ${row[breakdown] || '(none)'}` : undefined,
  });
  return cols;
}

/** Revenue and conversions of each model side by side, read from `<model>_revenue` and `<model>_conversions`. */
export const modelColumns = (models: string[]): Column[] =>
  models.flatMap((m) => [
    { key: `${m}_revenue`, label: `${label(m)} revenue`, kind: 'money' as const },
    { key: `${m}_conversions`, label: `${label(m)} conv.`, kind: 'share' as const },
  ]);
