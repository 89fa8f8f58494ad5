/**
 * Surveys: the post-purchase surveys with their status and responses; owners publish and close
 * them. Choosing one shows "self-reported vs pixel": one question's answers (by default the first
 * choice question, usually "How did you hear about us?") beside the sources the attribution
 * credits for the same orders, then the responses themselves.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { apiParams, rangedParams, useData } from '../data.ts';
import { Filters } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { formatValue, label } from '../../../ui/format.ts';
import { withParams, type Route } from '../router.ts';
import { FILTER_PARAMS, Status } from './common.ts';

interface Question {
  text: string;
  type: string;
  options?: string[];
}

interface Survey {
  id: string;
  title: string;
  status: 'draft' | 'live' | 'closed';
  questions: Question[];
  responses: number;
}

interface SourcesAnswer {
  question: number;
  question_text: string;
  rows: { answer: string; source: string; orders: number; revenue: number; share: number | null }[];
  answers: { answer: string; responses: number; matched: number }[];
  attribution_model: string;
  attribution_window: number;
}

interface ResponsesAnswer {
  responses: { transaction_id: string; answers: { question: number; value: unknown }[]; created_at: string }[];
  has_more: boolean;
  offset: number;
  limit: number;
}

const CELL_KINDS = { orders: 'share', share: 'fraction', revenue: 'money' } as const;

/** One matrix: a row per answer, a column per attributed source, `pick` of each cell. */
function matrix(answer: SourcesAnswer, pick: keyof typeof CELL_KINDS): { columns: Column[]; rows: Row[] } {
  const sources = [...new Set(answer.rows.map((r) => r.source))].sort();
  const columns: Column[] = [
    { key: 'answer', label: 'Answer', kind: 'text' },
    ...(pick === 'orders'
      ? [{ key: 'responses', label: 'Responses', kind: 'count' as const }, { key: 'matched', label: 'Matched orders', kind: 'count' as const }]
      : []),
    ...sources.map((s) => ({ key: `source:${s}`, label: s, kind: CELL_KINDS[pick] })),
  ];
  const rows = answer.answers.map((a) => {
    const row: Row = { answer: a.answer, responses: a.responses, matched: a.matched };
    for (const s of sources) row[`source:${s}`] = answer.rows.find((r) => r.answer === a.answer && r.source === s)?.[pick] ?? 0;
    return row;
  });
  return { columns, rows };
}

function SelfReported({ route, zone, survey }: { route: Route; zone: string; survey: Survey }) {
  const params = rangedParams(route, zone, FILTER_PARAMS);
  const question = route.params.get('question');
  if (question !== null) params.set('question', question);
  const answer = useData<SourcesAnswer>(`surveys/${survey.id}/sources`, params);
  const d = answer.data;
  const grouped = survey.questions.map((q, i) => [q, i] as const).filter(([q]) => q.type !== 'text');
  if (grouped.length === 0) return html`<p class="note">This survey has no choice, rating or NPS question to compare with the attributed sources.</p>`;
  const orders = d && matrix(d, 'orders');
  const revenue = d && matrix(d, 'revenue');
  const shares = d && matrix(d, 'share');
  return html`<section class="panel" aria-labelledby="self-reported-title">
    <div class="table-tools"><h2 id="self-reported-title">Self-reported vs pixel</h2>
      <label>Question
        <select name="question" onChange=${(e: Event) => withParams(route, { question: (e.target as HTMLSelectElement).value })}>
          ${grouped.map(([q, i]) => html`<option value=${i} selected=${d ? d.question === i : i === grouped[0]![1]}>${q.text}</option>`)}
        </select>
      </label></div>
    <${Filters} route=${route} />
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<p class="note">What customers answered to “${d.question_text}”, beside the source the pixel's attribution credits
      for the same orders (${label(d.attribution_model)}, ${d.attribution_window}-day window; orders in the date range, matched by transaction id).</p>
      <${Table} caption="Orders by answer and attributed source" columns=${orders!.columns} rows=${orders!.rows}
        filename="storelens-survey-orders.csv" empty="No answers to this question yet." />
      <${Table} caption="Agreement: share of each answer's orders credited to each source" columns=${shares!.columns} rows=${shares!.rows}
        filename="storelens-survey-agreement.csv" empty="No answers to this question yet." />
      <${Table} caption="Revenue by answer and attributed source" columns=${revenue!.columns} rows=${revenue!.rows}
        filename="storelens-survey-revenue.csv" empty="No answers to this question yet." />`}
  </section>`;
}

function Responses({ route, survey }: { route: Route; survey: Survey }) {
  const params = apiParams(route.params, ['workspace', 'offset']);
  params.set('limit', '50');
  const answer = useData<ResponsesAnswer>(`surveys/${survey.id}/responses`, params);
  const d = answer.data;
  const columns: Column[] = [
    { key: 'created_at', label: 'Answered (UTC)', kind: 'text', display: (r) => String(r.created_at).slice(0, 16).replace('T', ' ') },
    { key: 'transaction_id', label: 'Order', kind: 'text' },
    ...survey.questions.map((q, i) => ({
      key: `q${i}`,
      label: q.text,
      kind: 'text' as const,
      display: (r: Row) => {
        const value = (r.answers as ResponsesAnswer['responses'][number]['answers']).find((a) => a.question === i)?.value;
        return value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
      },
    })),
  ];
  return html`<${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<${Table} caption="Responses" columns=${columns} rows=${d.responses} filename="storelens-survey-responses.csv" empty="No responses yet." />
      <div class="pager">
        <button type="button" class="secondary" disabled=${d.offset === 0}
          onClick=${() => withParams(route, { offset: String(Math.max(0, d.offset - d.limit)) })}>Previous page</button>
        <button type="button" class="secondary" disabled=${!d.has_more}
          onClick=${() => withParams(route, { offset: String(d.offset + d.limit) })}>Next page</button>
      </div>`}`;
}

export function Surveys({ route, workspace }: ViewProps) {
  const answer = useData<{ surveys: Survey[] }>('surveys', { workspace: String(workspace.id) });
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const owner = workspace.role === 'owner';
  const act = async (survey: Survey, action: 'publish' | 'close') => {
    try {
      await sendJson('POST', `surveys/${survey.id}/${action}?workspace=${workspace.id}`);
      setResult({ message: action === 'publish' ? `“${survey.title}” is live: the pixel shows it after a purchase.` : `“${survey.title}” is closed.`, error: null });
      answer.reload();
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  const surveys = answer.data?.surveys ?? [];
  const selected = surveys.find((s) => s.id === route.params.get('survey'));
  const columns: Column[] = [
    { key: 'title', label: 'Survey', kind: 'text', onOpen: (row) => withParams(route, { survey: String(row.id), offset: null, question: null }) },
    { key: 'status', label: 'Status', kind: 'text' },
    { key: 'questions', label: 'Questions', kind: 'count', display: (row) => String((row.questions as Question[]).length) },
    { key: 'responses', label: 'Responses', kind: 'count' },
    ...(owner
      ? [{
          key: 'action', label: 'Action', kind: 'text' as const,
          display: (row: Row) => (row.status === 'live' ? 'Close' : 'Publish'),
          onOpen: (row: Row) => act(row as unknown as Survey, row.status === 'live' ? 'close' : 'publish'),
        }]
      : []),
  ];
  return html`
    <p class="note">Surveys are drafted by the assistant (surveys.create). The live one appears on the order confirmation page
      after a purchase; a workspace has one live survey at a time.</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${result.error && html`<p class="error" role="alert">${result.error}</p>`}
    ${result.message && html`<p class="ok" role="status">${result.message}</p>`}
    ${answer.data && html`<${Table} caption="Surveys" columns=${columns} rows=${surveys as unknown as Row[]} filename="storelens-surveys.csv"
      empty="No surveys yet: ask the assistant to draft one with surveys.create." />`}
    ${selected && html`<h2>${selected.title} <span class="note">(${selected.status}, ${formatValue(selected.responses, 'count')} responses)</span></h2>
      <${SelfReported} route=${route} zone=${workspace.timezone} survey=${selected} />
      <${Responses} route=${route} survey=${selected} />`}
  `;
}
