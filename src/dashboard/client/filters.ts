/** The controls shared by the views: date range with presets, attribution switches, source chips. */
import { html } from 'htm/preact';
import { withParams, type Route } from './router.ts';
import { addDays, label, monthStart, todayIn } from '../../ui/format.ts';
import { ATTRIBUTION_DATE_LABELS, ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS } from '../../kit/vocabulary.ts';

export const MODELS: string[] = [...ATTRIBUTION_MODELS];
/** The windows as the URL and the selects spell them. */
export const WINDOWS = ATTRIBUTION_WINDOWS.map(String);
export const DATES: string[] = [...ATTRIBUTION_DATES];
export const dateLabel = (date: string): string => ATTRIBUTION_DATE_LABELS[date as keyof typeof ATTRIBUTION_DATE_LABELS] ?? date;
/** Reporting sources, as report rows name them. */
export const SOURCES = ['meta', 'google', 'tiktok', 'pinterest', 'snapchat', 'microsoft', 'email', 'creator', 'organic'];

export interface Applied {
  attribution_model: string;
  attribution_window: number;
  attribution_date: string;
  ignore_sources: string[];
  /** The conversion names the figures count (the URL's `name`, else the workspace's conversion_names). */
  conversion_names?: string[];
}

/** Which conversion names the figures beside it count; `*` alone is every name. */
export function CountedNames(props: { names: string[] }) {
  const every = props.names.length === 1 && props.names[0] === '*';
  return html`<p class="note" data-testid="counted-names">Conversions counted: ${every ? 'every name (*)' : props.names.join(', ')}</p>`;
}

/**
 * Date presets on the workspace's calendar (`today` is its date now). "Last N days" are the N
 * complete days ending yesterday; today is its own preset, and the months run to today or to the
 * month's last day.
 */
const PRESETS: Record<string, { label: string; range: (today: string) => [string, string] }> = {
  today: { label: 'Today', range: (t) => [t, t] },
  yesterday: { label: 'Yesterday', range: (t) => [addDays(t, -1), addDays(t, -1)] },
  '7d': { label: 'Last 7 days', range: (t) => [addDays(t, -7), addDays(t, -1)] },
  '30d': { label: 'Last 30 days', range: (t) => [addDays(t, -30), addDays(t, -1)] },
  '90d': { label: 'Last 90 days', range: (t) => [addDays(t, -90), addDays(t, -1)] },
  month: { label: 'This month', range: (t) => [monthStart(t), t] },
  last_month: { label: 'Last month', range: (t) => [monthStart(t, -1), addDays(monthStart(t), -1)] },
};

/** The range a view covers: the URL's dates, else the "Last 7 days" preset (what the views answer without dates). */
export function shownRange(route: Route, zone: string): [string, string] {
  const fallback = PRESETS['7d']!.range(todayIn(zone));
  const [start, end] = [route.params.get('start_date'), route.params.get('end_date')];
  return start === null && end === null ? fallback : [start ?? addDays(todayIn(zone), -7), end ?? todayIn(zone)];
}

function DateRange(props: { route: Route; zone: string }) {
  const [start, end] = shownRange(props.route, props.zone);
  const today = todayIn(props.zone);
  const preset = Object.entries(PRESETS).find(([, p]) => p.range(today).join() === [start, end].join())?.[0] ?? 'custom';
  const choose = (key: string) => {
    const p = PRESETS[key];
    if (p) {
      const [s, e] = p.range(today);
      withParams(props.route, { start_date: s, end_date: e, offset: null });
    }
  };
  return html`<div class="field-group">
    <label>Date range
      <select name="range" onChange=${(e: Event) => choose((e.target as HTMLSelectElement).value)}>
        ${preset === 'custom' && html`<option value="custom" selected>Custom</option>`}
        ${Object.entries(PRESETS).map(([key, p]) => html`<option value=${key} selected=${key === preset}>${p.label}</option>`)}
      </select>
    </label>
    <label>From <input type="date" name="start_date" value=${start} max=${end}
      onChange=${(e: Event) => withParams(props.route, { start_date: (e.target as HTMLInputElement).value, offset: null })} /></label>
    <label>To <input type="date" name="end_date" value=${end} min=${start}
      onChange=${(e: Event) => withParams(props.route, { end_date: (e.target as HTMLInputElement).value, offset: null })} /></label>
  </div>`;
}

export function Select(props: { route: Route; name: string; text: string; options: string[]; value: string; optionLabel?: (v: string) => string }) {
  return html`<label>${props.text}
    <select name=${props.name} onChange=${(e: Event) => withParams(props.route, { [props.name]: (e.target as HTMLSelectElement).value, offset: null })}>
      ${props.options.map((o) => html`<option value=${o} selected=${o === props.value}>${props.optionLabel ? props.optionLabel(o) : o}</option>`)}
    </select>
  </label>`;
}

export function Filters(props: { route: Route; zone: string; applied?: Applied | null; attribution?: boolean; exclude?: boolean }) {
  const { route, applied } = props;
  const p = route.params;
  const excluded = (p.get('exclude_source') ?? applied?.ignore_sources.join(',') ?? '').split(',').filter(Boolean);
  const toggle = (source: string) => {
    const next = excluded.includes(source) ? excluded.filter((s) => s !== source) : [...excluded, source];
    // An empty list must still override the workspace's ignore_sources, so it stays in the URL.
    withParams(route, { exclude_source: next.join(',') || (applied?.ignore_sources.length ? ',' : null), offset: null });
  };
  return html`<form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
    <${DateRange} route=${route} zone=${props.zone} />
    ${props.attribution !== false && html`<div class="field-group">
      <${Select} route=${route} name="attribution_model" text="Attribution model" options=${MODELS}
        value=${p.get('attribution_model') ?? applied?.attribution_model ?? 'last_click'} optionLabel=${label} />
      <${Select} route=${route} name="attribution_window" text="Window (days)" options=${WINDOWS}
        value=${p.get('attribution_window') ?? String(applied?.attribution_window ?? 7)} />
      <${Select} route=${route} name="attribution_date" text="Credit on" options=${DATES}
        value=${p.get('attribution_date') ?? applied?.attribution_date ?? 'conversion'}
        optionLabel=${dateLabel} />
    </div>`}
    ${props.exclude && html`<fieldset class="chips"><legend>Exclude sources</legend>
      ${SOURCES.map((s) => html`<button type="button" class="chip" aria-pressed=${excluded.includes(s) ? 'true' : 'false'} onClick=${() => toggle(s)}>${s}</button>`)}
    </fieldset>`}
    ${applied?.conversion_names && html`<${CountedNames} names=${applied.conversion_names} />`}
  </form>`;
}
