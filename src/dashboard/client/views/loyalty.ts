/**
 * Loyalty: the programs with their members, points and revenue since each one's first day, and
 * the repeat purchases of the range's customers; owners set up a program with the form below.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { rangedParams, useData } from '../data.ts';
import { Filters } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { Kpi } from '../../../ui/kpi.ts';
import { Status } from './common.ts';

interface Program {
  id: string;
  name: string;
  points_per_unit: number;
  start_date: string;
  members: number | null;
  points_earned: number | null;
  revenue: number | null;
}

interface Repeat {
  customers: number;
  repeat_customers: number;
  repeat_rate: number | null;
  revenue: number;
  repeat_revenue_share: number | null;
  buckets: { orders: string; customers: number; revenue: number }[];
}

interface LoyaltyAnswer {
  range: { start_date: string; end_date: string };
  programs: Program[];
  repeat: Repeat | null;
}

const PROGRAM_COLUMNS: Column[] = [
  { key: 'name', label: 'Program', kind: 'text' },
  { key: 'points_per_unit', label: 'Points per unit', kind: 'count' },
  { key: 'start_date', label: 'First day', kind: 'text' },
  { key: 'members', label: 'Members', kind: 'count' },
  { key: 'points_earned', label: 'Points earned', kind: 'count' },
  { key: 'revenue', label: 'Members’ revenue', kind: 'money' },
];

const BUCKET_COLUMNS: Column[] = [
  { key: 'orders', label: 'Orders per customer', kind: 'text' },
  { key: 'customers', label: 'Customers', kind: 'count' },
  { key: 'revenue', label: 'Revenue', kind: 'money' },
];

function NewProgram({ workspaceId, onCreated }: { workspaceId: number; onCreated: (name: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    try {
      const { loyalty_program } = await sendJson<{ loyalty_program: { name: string } }>('POST', `loyalty/programs?workspace=${workspaceId}`, {
        name: form.get('name'),
        points_per_unit: Number(form.get('points_per_unit')),
        start_date: form.get('start_date'),
      });
      setError(null);
      (e.target as HTMLFormElement).reset();
      onCreated(loyalty_program.name);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return html`<form class="settings-form" onSubmit=${submit} aria-labelledby="loyalty-new-title">
    <h2 id="loyalty-new-title">New loyalty program</h2>
    <label>Name <input name="name" required maxlength="200" /></label>
    <label>Points per unit of currency <input type="number" name="points_per_unit" min="1" max="1000" step="1" value="1" required /></label>
    <label>First day <input type="date" name="start_date" required /></label>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <button type="submit">Create program</button>
  </form>`;
}

export function Loyalty({ route, workspace }: ViewProps) {
  const answer = useData<LoyaltyAnswer>('loyalty', rangedParams(route, workspace.timezone, ['workspace']));
  const [created, setCreated] = useState<string | null>(null);
  const d = answer.data;
  const repeat = d?.repeat;
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} attribution=${false} />
    <p class="note">A program's members are the customers with a sale order since its first day; each earns the program's points per whole unit
      of currency they spent. Programs count from their own first day; the repeat purchases below are those of the chosen days (docs: families).</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${created && html`<p class="ok" role="status">“${created}” is set up.</p>`}
    ${d && html`<${Table} caption="Loyalty programs" columns=${PROGRAM_COLUMNS} rows=${d.programs as unknown as Row[]} filename="storelens-loyalty-programs.csv"
      empty="No loyalty programs yet." />`}
    ${d && !repeat && html`<p class="note">Order figures are store-wide: members limited to some channels see the programs without them.</p>`}
    ${repeat && html`<section aria-label="Repeat purchases" class="kpis">
        ${(['customers', 'repeat_customers', 'repeat_rate', 'revenue', 'repeat_revenue_share'] as const).map((m) => html`<${Kpi} metric=${m} value=${repeat[m]} />`)}
      </section>
      <p class="note" data-testid="revenue-basis">Revenue here is the gross revenue of the shop's sale orders that name a customer, whether or not the pixel saw them; the overview's
        revenue is the pixel's conversions under the attribution settings, so the two differ for the same days (docs: books). Customers here
        are those orders' customer ids; the Customers view counts the report's buyers (a customer id, else the visitor).</p>
      <${Table} caption=${`Customers who ordered from ${d!.range.start_date} to ${d!.range.end_date}, by their orders in those days`} columns=${BUCKET_COLUMNS}
        rows=${repeat.buckets as unknown as Row[]} filename="storelens-repeat-purchases.csv" empty="No orders with a customer in these days." />`}
    ${workspace.role === 'owner' && html`<${NewProgram} workspaceId=${workspace.id} onCreated=${(name: string) => { setCreated(name); answer.reload(); }} />`}
  `;
}
