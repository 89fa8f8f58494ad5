/**
 * One MCP App (docs/mcp.md, "Charts inside the assistant"): the document's `data-app` names the
 * tool result it renders. It follows the host's theme and style variables and renders the
 * structuredContent of each tool result the host sends; it fetches nothing.
 */
import { render } from 'preact';
import { html } from 'htm/preact';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { setCurrency } from '../../../ui/format.ts';
import { connectToHost, type HostContext } from './bridge.ts';
import { Report } from './views/report.ts';
import { Attribution } from './views/attribution.ts';
import { Explain } from './views/explain.ts';
import { Reconciliation } from './views/reconciliation.ts';
import { Customers } from './views/customers.ts';

const VIEWS: Record<string, (props: { data: any }) => unknown> = {
  report: Report,
  attribution: Attribution,
  explain: Explain,
  books: Reconciliation,
  customers: Customers,
};

const root = document.getElementById('app')!;
const View = VIEWS[document.body.dataset.app ?? '']!;
let theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
let shown: CallToolResult | null = null;

/** The currency of a result: analytics.query's settings, or the member its result object says it in. */
function currencyOf(data: Record<string, any>): string | undefined {
  return data.settings_applied?.currency ?? data.attribution?.currency ?? data.reconciliation?.currency ?? data.customers?.currency;
}

function draw(): void {
  const data = shown?.structuredContent as Record<string, any> | undefined;
  const refusal = shown?.isError ? (data?.error?.message ?? 'The tool could not answer.') : null;
  if (data && !refusal) setCurrency(currencyOf(data) ?? 'USD');
  // The key redraws the chart's canvas in the new theme's colours.
  render(
    shown === null
      ? html`<p class="loading">Waiting for the result…</p>`
      : refusal
        ? html`<p class="error" role="alert">${refusal}</p>`
        : html`<${View} key=${theme} data=${data} />`,
    root,
  );
}

function applyContext(context: HostContext): void {
  const variables = context.styles?.variables ?? {};
  for (const [name, value] of Object.entries(variables)) if (name.startsWith('--') && value) document.documentElement.style.setProperty(name, value);
  if (context.theme) theme = context.theme;
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
  draw();
}

draw();
void connectToHost({ name: `storelens-${document.body.dataset.app}`, version: '1.0.0' }, {
  context: applyContext,
  result(result) {
    shown = result;
    draw();
  },
});
