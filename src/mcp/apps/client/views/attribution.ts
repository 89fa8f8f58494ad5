/** attribution.get-data's result as the dashboard's "models side by side" table: revenue and conversions per channel under each model. */
import { html } from 'htm/preact';
import { label } from '../../../../ui/format.ts';
import { Table, type Row } from '../../../../ui/table.ts';
import { keyColumns, modelColumns } from '../../../../ui/report-columns.ts';
import { dayOf, type Period } from './period.ts';

type ModelNumbers = { revenue?: number | null; conversions?: number | null };

export interface AttributionResult {
  attribution: Period & {
    timezone: string;
    models: string[];
    attribution_window: number;
    attribution_date: string;
    channels: ({ source: string } & Record<string, ModelNumbers | string>)[];
    totals: Record<string, ModelNumbers>;
  };
}

/** The model columns' members (`<model>_revenue`, `<model>_conversions`) of one channel or of the totals. */
const flatten = (models: string[], numbers: (model: string) => ModelNumbers | undefined): Row =>
  Object.fromEntries(models.flatMap((m) => [[`${m}_revenue`, numbers(m)?.revenue ?? null], [`${m}_conversions`, numbers(m)?.conversions ?? null]]));

export function Attribution({ data }: { data: AttributionResult }) {
  const a = data.attribution;
  const rows = a.channels.map((channel) => ({ source: channel.source, ...flatten(a.models, (m) => channel[m] as ModelNumbers | undefined) }));
  const date = a.attribution_date === 'click' ? 'on the click date' : 'on the conversion date';
  return html`
    <p class="note">${dayOf(a.start_date, a.timezone)} to ${dayOf(a.end_date, a.timezone)} (${a.timezone}) · ${a.attribution_window}-day window, credited ${date}</p>
    <${Table} caption=${a.models.length === 1 ? `${label(a.models[0]!)} attribution by channel` : 'The models side by side'}
      columns=${[...keyColumns('source'), ...modelColumns(a.models)]} rows=${rows} totals=${flatten(a.models, (m) => a.totals[m])} />`;
}
