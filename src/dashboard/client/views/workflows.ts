/**
 * Workflows: the assistant drafts them (workflows.create), people turn them on and off here and
 * run one by hand; choosing one shows its newest executions with each action's outcome.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { useData } from '../data.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { withParams, type Route } from '../router.ts';
import { Status } from './common.ts';

interface Trigger {
  type: string;
  metric?: string;
  operator?: string;
  value?: number;
  source?: string;
  campaign?: string;
  period?: string;
}

interface Workflow {
  id: string;
  name: string;
  trigger: Trigger;
  actions: { type: string; target: string }[];
  enabled: boolean;
}

interface Execution {
  id: string;
  due: string;
  started_at: string;
  status: string;
  outcome: { reason: string; values: Record<string, unknown>; actions: { type: string; status: string; detail: string }[]; error?: string } | null;
}

const thresholdText = (t: Trigger) =>
  [t.source, t.campaign && `campaign ${t.campaign}`, t.metric, t.operator, t.value, (t.period ?? 'yesterday').replace(/_/g, ' ')].filter((part) => part !== undefined && part !== '').join(' ');
const triggerText = (t: Trigger) => (t.type === 'metric_threshold' ? thresholdText(t) : t.type === 'ad_fatigue' ? `ad fatigue ≥ ${t.value ?? 60}` : t.type.replace(/_/g, ' '));
const time = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** What a trigger read, as `metric: value` pairs ("none" when it read no figure, as a schedule does). */
function valuesText(values: Record<string, unknown>): string {
  const entries = Object.entries(values);
  if (entries.length === 0) return 'none';
  return entries.map(([key, value]) => `${key.replace(/_/g, ' ')}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`).join(', ');
}

function Executions({ workspace, workflow }: { workspace: number; workflow: Workflow }) {
  const answer = useData<{ executions: Execution[]; total: number }>(`workflows/${workflow.id}/executions`, { workspace: String(workspace) });
  const columns: Column[] = [
    { key: 'started_at', label: 'Started (UTC)', kind: 'text', display: (r) => time(String(r.started_at)) },
    { key: 'due', label: 'Due', kind: 'text' },
    { key: 'status', label: 'Status', kind: 'text' },
    {
      key: 'values', label: 'Values', kind: 'text',
      display: (r) => valuesText((r.outcome as Execution['outcome'])?.values ?? {}),
    },
    {
      key: 'actions', label: 'Actions', kind: 'text',
      display: (r) => {
        const outcome = r.outcome as Execution['outcome'];
        if (outcome?.error) return outcome.error;
        return (outcome?.actions ?? []).map((a) => `${a.type}: ${a.status} (${a.detail})`).join('; ');
      },
    },
  ];
  const d = answer.data;
  return html`<${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<${Table} caption=${`Executions of “${workflow.name}” (newest ${d.executions.length} of ${d.total})`} columns=${columns}
      rows=${d.executions as unknown as Row[]} filename="storelens-workflow-executions.csv" empty="Not evaluated yet." />`}`;
}

export function Workflows({ route, workspace }: ViewProps) {
  const answer = useData<{ workflows: Workflow[] }>('workflows', { workspace: String(workspace.id) });
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const [ran, setRan] = useState(0);
  const owner = workspace.role === 'owner';
  const act = async (workflow: Workflow, action: 'enable' | 'disable' | 'run') => {
    try {
      const answered = await sendJson<{ execution?: Execution }>('POST', `workflows/${workflow.id}/${action}?workspace=${workspace.id}`);
      const done = {
        enable: `“${workflow.name}” is enabled: it runs from its next due time.`,
        disable: `“${workflow.name}” is disabled.`,
        run: `“${workflow.name}” ran: ${answered.execution?.status.replace('_', ' ')}.`,
      };
      setResult({ message: done[action], error: null });
      answer.reload();
      setRan((n) => n + 1);
      if (action === 'run') withParams(route, { workflow: workflow.id });
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  const workflows = answer.data?.workflows ?? [];
  const selected = workflows.find((w) => w.id === route.params.get('workflow'));
  const columns: Column[] = [
    { key: 'name', label: 'Workflow', kind: 'text', onOpen: (row) => withParams(route, { workflow: String(row.id) }) },
    { key: 'trigger', label: 'Trigger', kind: 'text', display: (row) => triggerText(row.trigger as Trigger) },
    { key: 'actions', label: 'Actions', kind: 'text', display: (row) => (row.actions as Workflow['actions']).map((a) => a.type.replace(/_/g, ' ')).join(', ') },
    { key: 'enabled', label: 'Status', kind: 'text', display: (row) => (row.enabled ? 'enabled' : 'disabled') },
    ...(owner
      ? [
          {
            key: 'switch', label: 'Switch', kind: 'text' as const,
            display: (row: Row) => (row.enabled ? 'Disable' : 'Enable'),
            onOpen: (row: Row) => act(row as unknown as Workflow, row.enabled ? 'disable' : 'enable'),
          },
          {
            key: 'run', label: 'Run', kind: 'text' as const,
            display: () => 'Run now',
            onOpen: (row: Row) => act(row as unknown as Workflow, 'run'),
          },
        ]
      : []),
  ];
  return html`
    <p class="note">Workflows are drafted by the assistant (workflows.create) and stay off until someone enables them. Schedules run at
      08:00 in the workspace's time zone, metric thresholds every 15 minutes, new conversions when a newer sale arrives, ad fatigue daily.</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${result.error && html`<p class="error" role="alert">${result.error}</p>`}
    ${result.message && html`<p class="ok" role="status">${result.message}</p>`}
    ${answer.data && html`<${Table} caption="Workflows" columns=${columns} rows=${workflows as unknown as Row[]} filename="storelens-workflows.csv"
      empty="No workflows yet: ask the assistant to draft one with workflows.create." />`}
    ${selected && html`<h2>${selected.name}</h2><${Executions} key=${`${selected.id}:${ran}`} workspace=${workspace.id} workflow=${selected} />`}
  `;
}
