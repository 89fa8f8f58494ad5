/**
 * AI visibility: the shoppers' questions tracked with ai-visibility.create-prompt, each with its
 * newest check (did the assistant name the brand, in which place, which competitors) and how often
 * the brand was named in the newest checks. Owners ask every active prompt now, as `ai-visibility
 * run` does; without an assistant configured the view says which setting to set.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { useData } from '../data.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { Status } from './common.ts';

interface Check {
  status: 'ok' | 'failed';
  model: string;
  brand_mentioned: boolean | null;
  position: number | null;
  competitors_mentioned: string[];
  error?: string;
  created_at: string;
}

interface Prompt {
  id: string;
  prompt: string;
  brand: string;
  competitors: string[];
  active: boolean;
  results: Check[];
}

interface VisibilityAnswer {
  status: 'configured' | 'not_configured';
  note?: string;
  running: boolean;
  total: number;
  prompts: Prompt[];
}

const latest = (row: Row) => (row.results as Check[]).at(-1);

function checkText(check: Check | undefined): string {
  if (!check) return 'not asked yet';
  if (check.status === 'failed') return `failed: ${check.error}`;
  return check.brand_mentioned ? `named, place ${check.position}` : 'not named';
}

/** `workspaceName`: the brand a prompt looks for when it names none. */
const columns = (workspaceName: string): Column[] => [
  { key: 'prompt', label: 'Question', kind: 'text', wrap: true },
  { key: 'brand', label: 'Brand', kind: 'text', display: (r) => String(r.brand) || workspaceName },
  { key: 'competitors', label: 'Competitors', kind: 'text', display: (r) => (r.competitors as string[]).join(', '), wrap: true },
  { key: 'latest', label: 'Newest check', kind: 'text', display: (r) => checkText(latest(r)) },
  { key: 'named', label: 'Competitors named', kind: 'text', display: (r) => latest(r)?.competitors_mentioned.join(', ') ?? '' },
  {
    key: 'share', label: 'Brand named', kind: 'text',
    display: (r) => {
      const answered = (r.results as Check[]).filter((c) => c.status === 'ok');
      return answered.length ? `${answered.filter((c) => c.brand_mentioned).length} of ${answered.length} answers` : '';
    },
  },
  { key: 'checked', label: 'Checked (UTC)', kind: 'text', display: (r) => latest(r)?.created_at.slice(0, 16).replace('T', ' ') ?? '' },
];

export function AiVisibility({ workspace }: ViewProps) {
  const answer = useData<VisibilityAnswer>('ai-visibility', { workspace: String(workspace.id) });
  const [run, setRun] = useState<{ busy: boolean; message: string | null; error: string | null }>({ busy: false, message: null, error: null });
  const d = answer.data;
  const runNow = async () => {
    setRun({ busy: true, message: null, error: null });
    try {
      const { results } = await sendJson<{ results: Check[] }>('POST', `ai-visibility/run?workspace=${workspace.id}`);
      const failed = results.filter((c) => c.status === 'failed').length;
      setRun({ busy: false, message: `Asked ${results.length} prompt${results.length === 1 ? '' : 's'}${failed ? `, ${failed} failed` : ''}.`, error: null });
      answer.reload();
    } catch (err) {
      setRun({ busy: false, message: null, error: (err as Error).message });
    }
  };
  return html`
    <p class="note">Each run asks every active tracked question once of an OpenAI-compatible assistant and stores whether the answer names the
      brand, its place among the tracked brands named, and the competitors named; the newest 20 checks of each question are kept here (docs: families).</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d?.status === 'not_configured' && html`<p class="note" role="note" data-testid="ai-not-configured">${d.note} To run them, set <code>STORELENS_LLM_URL</code> on
      the server to the base URL of an OpenAI-compatible API (for example https://api.openai.com/v1), with <code>STORELENS_LLM_KEY</code> and <code>STORELENS_LLM_MODEL</code> as
      needed, then restart it.</p>`}
    ${d?.status === 'configured' && workspace.role === 'owner' && html`<p>
      <button type="button" onClick=${runNow} disabled=${run.busy || d.running}>${run.busy || d.running ? 'Running…' : 'Run prompts now'}</button></p>`}
    ${run.error && html`<p class="error" role="alert">${run.error}</p>`}
    ${run.message && html`<p class="ok" role="status">${run.message}</p>`}
    ${d && html`<${Table} caption=${d.total > d.prompts.length ? `Tracked questions (first ${d.prompts.length} of ${d.total})` : 'Tracked questions'}
      columns=${columns(workspace.name)} rows=${d.prompts as unknown as Row[]} filename="storelens-ai-visibility.csv"
      empty="No tracked questions yet: ask the assistant to add one with ai-visibility.create-prompt." />`}
  `;
}
