/**
 * Geo tests: the workspace's tests with their status and the lift of the treatment regions over
 * the control regions (difference in differences, 95 % interval); owners set up a new one, naming
 * the channel it tests when its result should calibrate data_driven.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { useData } from '../data.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { formatValue } from '../../../ui/format.ts';
import { Status } from './common.ts';

interface GeoTestRow {
  id: string;
  name: string;
  level: string;
  treatment: string[];
  control: string[];
  start_date: string;
  end_date: string;
  source?: string;
  status: string;
  results: { lift_per_day: number; interval_95: [number, number]; relative_lift: number | null; test_days: number } | null;
}

const regions = (value: string) => value.split(',').map((r) => r.trim()).filter(Boolean);

function NewGeoTest({ workspaceId, onCreated }: { workspaceId: number; onCreated: (name: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    try {
      const { geo_test } = await sendJson<{ geo_test: { name: string } }>('POST', `geo-tests?workspace=${workspaceId}`, {
        name: form.get('name'),
        level: form.get('level'),
        treatment: regions(String(form.get('treatment'))),
        control: regions(String(form.get('control'))),
        start_date: form.get('start_date'),
        end_date: form.get('end_date'),
        pre_days: Number(form.get('pre_days')),
        ...(String(form.get('source') ?? '').trim() ? { source: String(form.get('source')).trim() } : {}),
      });
      setError(null);
      (e.target as HTMLFormElement).reset();
      onCreated(geo_test.name);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return html`<form class="geo-new" onSubmit=${submit} aria-labelledby="geo-new-title">
    <h2 id="geo-new-title">New geo test</h2>
    <label>Name <input name="name" required maxlength="200" /></label>
    <label>Regions are
      <select name="level"><option value="country">countries (two-letter codes)</option><option value="city">cities</option></select>
    </label>
    <label>Treatment regions <input name="treatment" required placeholder="DE, NL" /></label>
    <label>Control regions <input name="control" required placeholder="GB, CA" /></label>
    <label>First day <input type="date" name="start_date" required /></label>
    <label>Last day <input type="date" name="end_date" required /></label>
    <label>Days compared before <input type="number" name="pre_days" min="7" max="365" value="28" required /></label>
    <label>Channel tested (optional; its result calibrates data_driven) <input name="source" maxlength="64" placeholder="meta" /></label>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <button type="submit">Create geo test</button>
  </form>`;
}

export function GeoTests({ workspace }: ViewProps) {
  const answer = useData<{ tests: GeoTestRow[] }>('geo-tests', { workspace: String(workspace.id) });
  const [created, setCreated] = useState<string | null>(null);
  const columns: Column[] = [
    { key: 'name', label: 'Test', kind: 'text' },
    { key: 'treatment', label: 'Treatment', kind: 'text', display: (r) => (r.treatment as string[]).join(', ') },
    { key: 'control', label: 'Control', kind: 'text', display: (r) => (r.control as string[]).join(', ') },
    { key: 'source', label: 'Channel', kind: 'text', display: (r) => (r.source as string | undefined) ?? '' },
    { key: 'start_date', label: 'Days', kind: 'text', display: (r) => `${r.start_date} to ${r.end_date}` },
    { key: 'status', label: 'Status', kind: 'text' },
    { key: 'lift', label: 'Lift per day', kind: 'text', display: (r) => (r.results ? formatValue((r.results as GeoTestRow['results'])!.lift_per_day, 'money') : 'not yet') },
    {
      key: 'interval', label: '95 % interval', kind: 'text',
      display: (r) => {
        const results = r.results as GeoTestRow['results'];
        return results ? `${formatValue(results.interval_95[0], 'money')} to ${formatValue(results.interval_95[1], 'money')}` : '';
      },
    },
  ];
  return html`
    <p class="note">The lift is the treatment regions' extra daily revenue against the control regions, by difference in differences
      over the test's complete days and the days before it (docs: families).</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${created && html`<p class="ok" role="status">“${created}” is set up.</p>`}
    ${answer.data && html`<${Table} caption="Geo tests" columns=${columns} rows=${answer.data.tests as unknown as Row[]} filename="storelens-geo-tests.csv"
      empty="No geo tests yet." />`}
    ${workspace.role === 'owner' && html`<${NewGeoTest} workspaceId=${workspace.id} onCreated=${(name: string) => { setCreated(name); answer.reload(); }} />`}
  `;
}
