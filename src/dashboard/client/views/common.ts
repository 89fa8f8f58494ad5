import { html } from 'htm/preact';
import { apiUrl } from '../api.ts';

/** Parameters every analytics view passes through to its endpoint. */
export const FILTER_PARAMS = ['workspace', 'start_date', 'end_date', 'attribution_model', 'attribution_window', 'attribution_date', 'source', 'exclude_source'];

type Figures = Record<string, unknown>;

/**
 * A row as the tables show it: without spend there is no cost per acquisition, so CPA is left
 * blank ("-", as ROAS is) where the report answers 0. Without the spend column, a CPA of 0 (spend
 * over conversions) says the same.
 */
export function shownCosts<R extends Figures>(row: R): R {
  return 'cpa' in row && (row.spend ?? row.cpa) === 0 ? { ...row, cpa: null } : row;
}

export function Status(props: { loading: boolean; error: string | null }) {
  if (props.error) return html`<p class="error" role="alert">${props.error}</p>`;
  return props.loading ? html`<p class="loading" aria-live="polite">Loading…</p>` : null;
}

/**
 * Download links of one export (docs/dashboard.md, "Downloads"): the file comes from the server,
 * every row of the view's filters, not only the page on screen; each link names its file type.
 */
export function Downloads(props: { what: string; kind: string; params: URLSearchParams; files: [label: string, extra: Record<string, string>][] }) {
  const href = (extra: Record<string, string>) => {
    const params = new URLSearchParams(props.params);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    return apiUrl(`export/${props.kind}`, params);
  };
  return html`<p class="downloads"><span>${props.what}:</span>
    ${props.files.map(([name, extra]) => html`<a class="download" href=${href(extra)} download>${name}</a>`)}</p>`;
}
