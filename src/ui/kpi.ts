import { html } from 'htm/preact';
import { change, formatValue, label, METRIC_KINDS } from './format.ts';

/** A metric with its change against the previous period (green when better; spend and costs are neutral). */
export function Kpi(props: { metric: string; value: number | null; previous?: number | null }) {
  const delta = props.previous === undefined ? null : change(props.value, props.previous);
  const neutral = ['spend', 'cogs', 'payment_fees', 'shipping_costs', 'refunds'].includes(props.metric);
  const tone = delta === null || neutral ? '' : delta >= 0 ? 'up' : 'down';
  return html`<div class="kpi" data-metric=${props.metric}>
    <div class="kpi-label">${label(props.metric)}</div>
    <div class="kpi-value">${formatValue(props.value, METRIC_KINDS[props.metric] ?? 'count')}</div>
    ${props.previous !== undefined && html`<div class=${`kpi-change ${tone}`}>
      ${delta === null ? 'no comparison' : `${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(1)} % vs previous period`}
    </div>`}
  </div>`;
}
