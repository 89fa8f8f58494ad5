import { html } from 'htm/preact';
import { Table, type Column, type Row } from './table.ts';
import { label } from './format.ts';
import type { ConversionExplanation } from '../analytics/explain/explain-conversion.ts';

/** What the tables read of /v3/attribution's answer for one order (attribution.explain's result holds it too). */
export type WhyAnswer = Omit<ConversionExplanation, 'transaction_id' | 'dt' | 'revenue' | 'touchpoints'>;

/** The panel's tables and note for an answer; `downloads` adds their CSV buttons. */
export function WhyTables({ answer: d, downloads }: { answer: WhyAnswer; downloads: boolean }) {
  // Every source any model credits, in order of first appearance (data_driven adds organic's part).
  const sources = [...new Set(Object.values(d.credit).flatMap((shares) => Object.keys(shares)))];
  const models: Column[] = [{ key: 'model', label: 'Model', kind: 'text' }, ...sources.map((s): Column => ({ key: s, label: s, kind: 'fraction' }))];
  const modelRows: Row[] = Object.entries(d.credit).map(([model, shares]) => ({ model: label(model), ...shares }));
  const effects: Row[] = Object.entries(d.removal_effects).map(([source, effect]) => ({ source, effect }));
  const fitted = d.fit.method !== 'linear_fallback';
  const added: Row[] = fitted ? Object.entries(d.lifts).map(([source, lift]) => ({
    source, lift, from: d.calibrated_sources.includes(source) ? 'lift or geo test' : 'fitted', revenue: d.incremental_revenue[source] ?? 0,
  })) : [];
  return html`<div class="why">
    <${Table} caption="Credit under each model" columns=${models} rows=${modelRows} filename=${downloads ? 'storelens-why.csv' : undefined} />
    <${Table} caption="Removal effects of the Markov chain" columns=${[{ key: 'source', label: 'Source', kind: 'text' }, { key: 'effect', label: 'Removal effect', kind: 'fraction' }]}
      rows=${effects} filename=${downloads ? 'storelens-removal-effects.csv' : undefined} empty="No journeys in this range." />
    <p class="note">The chain stood on ${d.paths.converting} converting and ${d.paths.non_converting} non-converting journeys of this range.
      Any click gives every source 100 %; the other models split the order.</p>
    ${fitted
      ? html`<${Table} caption="What each channel added (data-driven)" columns=${[
          { key: 'source', label: 'Source', kind: 'text' },
          { key: 'lift', label: 'Added chance to buy', kind: 'fraction' },
          { key: 'from', label: 'Measured by', kind: 'text' },
          { key: 'revenue', label: 'Of this order', kind: 'money' },
        ]} rows=${added} filename=${downloads ? 'storelens-lifts.csv' : undefined} />
        <p class="note">Fitted on ${d.fit.visitors} visitors and ${d.fit.buyers} buyers of this range; without any channel ${(d.baseline * 100).toFixed(2)} % bought.</p>`
      : html`<p class="note">Data-driven had too few visitors or buyers in this range to fit (${d.fit.visitors} visitors, ${d.fit.buyers} buyers) and credits as linear.</p>`}
  </div>`;
}
