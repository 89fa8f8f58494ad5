/**
 * Lift tests, in the settings (owners): what an experiment measured for a channel, listed and
 * entered as `lift-test add` does. data_driven takes the share instead of its fitted lift for the
 * conversions in the test's days.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { sendJson } from '../api.ts';
import { useData } from '../data.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { Status } from './common.ts';

const share = (value: unknown) => `${(Number(value) * 100).toFixed(1)} %`;

export function LiftTests({ workspace }: { workspace: string }) {
  const answer = useData<{ lift_tests: Row[] }>('lift-tests', { workspace });
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const f = new FormData(form);
    const [low, high] = [f.get('interval_low'), f.get('interval_high')].map((v) => String(v ?? ''));
    try {
      await sendJson('POST', `lift-tests?workspace=${workspace}`, {
        source: f.get('source'),
        start_date: f.get('start_date'),
        end_date: f.get('end_date'),
        incremental_share: Number(f.get('incremental_share')) / 100,
        interval: low && high ? [Number(low) / 100, Number(high) / 100] : null,
      });
      form.reset();
      setResult({ message: 'Lift test added.', error: null });
      answer.reload();
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  const columns: Column[] = [
    { key: 'source', label: 'Channel', kind: 'text' },
    { key: 'start_date', label: 'Days', kind: 'text', display: (r) => `${r.start_date} to ${r.end_date}` },
    { key: 'incremental_share', label: 'Incremental share', kind: 'text', display: (r) => share(r.incremental_share) },
    { key: 'interval', label: 'Interval', kind: 'text', display: (r) => (Array.isArray(r.interval) ? `${share(r.interval[0])} to ${share(r.interval[1])}` : '') },
  ];
  return html`<section aria-labelledby="lift-tests-title">
    <h2 id="lift-tests-title">Lift tests</h2>
    <p class="note">What a holdout or geo test measured: the share of the conversions a channel touched that it caused. Data-driven
      attribution uses it instead of its own estimate for the test's days.</p>
    ${answer.data ? html`<${Table} caption="Lift tests of this workspace" columns=${columns} rows=${answer.data.lift_tests}
      filename="storelens-lift-tests.csv" empty="No lift tests yet." />` : html`<${Status} loading=${answer.loading} error=${answer.error} />`}
    <form class="settings-form" onSubmit=${submit} aria-labelledby="lift-new-title">
      <h3 id="lift-new-title">New lift test</h3>
      <div class="field-group">
        <label>Channel <input name="source" required maxlength="64" placeholder="meta" /></label>
        <label>First day <input type="date" name="start_date" required /></label>
        <label>Last day <input type="date" name="end_date" required /></label>
        <label>Incremental share (%) <input type="number" name="incremental_share" min="0" max="100" step="0.1" required /></label>
        <label>Interval from (%) <input type="number" name="interval_low" min="0" max="100" step="0.1" /></label>
        <label>Interval to (%) <input type="number" name="interval_high" min="0" max="100" step="0.1" /></label>
      </div>
      ${result.error && html`<p class="error" role="alert">${result.error}</p>`}
      ${result.message && html`<p class="ok" role="status">${result.message}</p>`}
      <button type="submit">Add lift test</button>
    </form>
  </section>`;
}
