/**
 * Forms: the storefront forms with their status, fields and submission counts; owners publish
 * and close them. Choosing one shows its fields, the HTML the shop pastes to put it on a page,
 * and its newest submissions (leads).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { apiParams, useData } from '../data.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { formatValue } from '../../../ui/format.ts';
import { withParams, type Route } from '../router.ts';
import { Status } from './common.ts';

interface Field {
  label: string;
  type: string;
  required: boolean;
  options?: string[];
}

interface Form {
  id: string;
  name: string;
  status: 'draft' | 'live' | 'closed';
  fields: Field[];
  embed: string;
  submissions: number;
}

interface SubmissionsAnswer {
  submissions: { email: string; fields: { field: number; value: unknown }[]; received_at: string }[];
  has_more: boolean;
  offset: number;
  limit: number;
}

const FIELD_COLUMNS: Column[] = [
  { key: 'label', label: 'Field', kind: 'text' },
  { key: 'type', label: 'Type', kind: 'text' },
  { key: 'required', label: 'Required', kind: 'text', display: (r) => (r.required ? 'yes' : 'no') },
  { key: 'options', label: 'Options', kind: 'text', display: (r) => ((r.options as string[] | undefined) ?? []).join(', ') },
];

function Embed({ form }: { form: Form }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(form.embed);
      setCopied('Copied.');
    } catch {
      setCopied('Copying is blocked here: select the text and copy it.');
    }
  };
  return html`<section class="panel" aria-labelledby="embed-title">
    <h2 id="embed-title">Put it on the shop</h2>
    <p class="note">Paste this HTML where the form belongs, on a page that carries the pixel (Settings). The pixel sends what
      visitors type to Storelens and tells them it arrived. Restyle it freely; keep the <code>data-storelens-…</code> marks.</p>
    <label>Form HTML
      <textarea readonly rows=${Math.min(16, form.embed.split('\n').length)} name="embed">${form.embed}</textarea></label>
    <p><button type="button" class="secondary" onClick=${copy}>Copy the HTML</button>
      ${copied && html` <span role="status">${copied}</span>`}</p>
  </section>`;
}

function Submissions({ route, form }: { route: Route; form: Form }) {
  const params = apiParams(route.params, ['workspace', 'offset']);
  params.set('limit', '50');
  const answer = useData<SubmissionsAnswer>(`forms/${form.id}/submissions`, params);
  const d = answer.data;
  const columns: Column[] = [
    { key: 'received_at', label: 'Received (UTC)', kind: 'text', display: (r) => String(r.received_at).slice(0, 16).replace('T', ' ') },
    ...form.fields.map((f, i) => ({
      key: `f${i}`,
      label: f.label,
      kind: 'text' as const,
      display: (r: Row) => {
        const value = (r.fields as SubmissionsAnswer['submissions'][number]['fields']).find((v) => v.field === i)?.value;
        return value === undefined ? '' : value === true ? 'yes' : value === false ? 'no' : String(value);
      },
    })),
  ];
  return html`<${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<${Table} caption="Newest submissions (leads)" columns=${columns} rows=${d.submissions} filename="storelens-form-leads.csv"
        empty=${form.status === 'live' ? 'No submissions yet.' : 'No submissions: only a live form takes them.'} />
      <div class="pager">
        <button type="button" class="secondary" disabled=${d.offset === 0}
          onClick=${() => withParams(route, { offset: String(Math.max(0, d.offset - d.limit)) })}>Newer</button>
        <button type="button" class="secondary" disabled=${!d.has_more}
          onClick=${() => withParams(route, { offset: String(d.offset + d.limit) })}>Older</button>
      </div>`}`;
}

export function Forms({ route, workspace }: ViewProps) {
  const answer = useData<{ forms: Form[] }>('forms', { workspace: String(workspace.id) });
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const owner = workspace.role === 'owner';
  const act = async (form: Form, action: 'publish' | 'close') => {
    try {
      await sendJson('POST', `forms/${form.id}/${action}?workspace=${workspace.id}`);
      setResult({ message: action === 'publish' ? `“${form.name}” is live: it takes submissions.` : `“${form.name}” is closed: it takes no more submissions.`, error: null });
      answer.reload();
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  const forms = answer.data?.forms ?? [];
  const selected = forms.find((f) => f.id === route.params.get('form'));
  const columns: Column[] = [
    { key: 'name', label: 'Form', kind: 'text', onOpen: (row) => withParams(route, { form: String(row.id), offset: null }) },
    { key: 'status', label: 'Status', kind: 'text' },
    { key: 'fields', label: 'Fields', kind: 'text', wrap: true, display: (row) => (row.fields as Field[]).map((f) => f.label).join(', ') },
    { key: 'submissions', label: 'Submissions', kind: 'count' },
    ...(owner
      ? [{
          key: 'action', label: 'Action', kind: 'text' as const,
          display: (row: Row) => (row.status === 'live' ? 'Close' : 'Publish'),
          onOpen: (row: Row) => act(row as unknown as Form, row.status === 'live' ? 'close' : 'publish'),
        }]
      : []),
  ];
  return html`
    <p class="note">Storefront forms (a newsletter signup, a “notify me”, an enquiry) whose submissions are leads. They are drafted
      with <code>form create</code> or by the assistant; only a live form takes submissions.</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${result.error && html`<p class="error" role="alert">${result.error}</p>`}
    ${result.message && html`<p class="ok" role="status">${result.message}</p>`}
    ${answer.data && html`<${Table} caption="Forms" columns=${columns} rows=${forms as unknown as Row[]} filename="storelens-forms.csv"
      empty="No forms yet: draft one with form create, or ask the assistant." />`}
    ${selected && html`<h2>${selected.name} <span class="note">(${selected.status}, ${formatValue(selected.submissions, 'count')} submissions)</span></h2>
      <${Table} caption="Fields" columns=${FIELD_COLUMNS} rows=${selected.fields as unknown as Row[]} />
      <${Embed} form=${selected} />
      <${Submissions} route=${route} form=${selected} />`}
  `;
}
