/**
 * Creators: every creator code the traffic carried in the range (a `ref` link code or a coupon)
 * and every stored creator with its tracking and linked codes, with sessions, orders, revenue and
 * the commission of an applied program, busiest first, beside the report's revenue of the creator
 * channel; owners link a code to a stored creator; then the creator commission programs, which
 * owners apply and un-apply. Creators and programs are added by the assistant (creators.create).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { rangedParams, useData } from '../data.ts';
import { Filters } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { formatValue } from '../../../ui/format.ts';
import { Status } from './common.ts';

interface Commission {
  type: 'percentage' | 'fixed' | 'tiered';
  rate_percent?: number;
  amount_cents?: number;
  tiers?: { min_revenue_cents: number; rate_percent: number }[];
}

interface CreatorsAnswer {
  range: { start_date: string; end_date: string };
  creators: Row[];
  programs: Program[];
  revenue_basis: { revenue: number; report_revenue: number; reason: string };
}

interface Program {
  id: string;
  name: string;
  commission: Commission;
  applied: boolean;
  applied_at: string | null;
}

const CREATOR_COLUMNS: Column[] = [
  { key: 'code', label: 'Code', kind: 'text' },
  { key: 'codes', label: 'Codes counted', kind: 'text', display: (r) => (r.codes as string[]).join(', ') },
  { key: 'name', label: 'Creator', kind: 'text', display: (r) => (r.name === null ? 'not stored' : String(r.name)) },
  { key: 'program', label: 'Program', kind: 'text', display: (r) => String(r.program ?? '') },
  { key: 'sessions', label: 'Sessions', kind: 'count' },
  { key: 'orders', label: 'Orders', kind: 'count' },
  { key: 'revenue', label: 'Revenue', kind: 'money' },
  { key: 'commission', label: 'Commission', kind: 'money' },
  { key: 'coupon_codes', label: 'Coupons', kind: 'text', display: (r) => (r.coupon_codes as string[]).join(', ') },
];

function commissionText(c: Commission): string {
  if (c.type === 'percentage') return `${c.rate_percent} % of revenue`;
  if (c.type === 'fixed') return `${formatValue(c.amount_cents, 'cents')} per order`;
  const tiers = (c.tiers ?? []).map((t) => `${t.rate_percent} % from ${formatValue(t.min_revenue_cents, 'cents')}`).join(', ');
  return `${tiers} of revenue in a month (the tier reached applies to all of it)`;
}

const PROGRAM_COLUMNS: Column[] = [
  { key: 'name', label: 'Program', kind: 'text' },
  { key: 'commission', label: 'Commission', kind: 'text', display: (r) => commissionText(r.commission as Commission) },
  { key: 'applied', label: 'Applied', kind: 'text', display: (r) => (r.applied ? `since ${String(r.applied_at).slice(0, 10)}` : 'not yet') },
];

export function Creators({ route, workspace }: ViewProps) {
  const answer = useData<CreatorsAnswer>('creators', rangedParams(route, workspace.timezone, ['workspace']));
  const d = answer.data;
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const act = async (program: Program, action: 'apply' | 'unapply') => {
    try {
      await sendJson('POST', `creator-programs/${program.id}/${action}?workspace=${workspace.id}`);
      setResult({
        message: action === 'apply' ? `“${program.name}” is applied: its creators earn its commission.` : `“${program.name}” is no longer applied: its creators earn no commission.`,
        error: null,
      });
      answer.reload();
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  const programColumns: Column[] = [
    ...PROGRAM_COLUMNS,
    ...(workspace.role === 'owner'
      ? [{
          key: 'action', label: 'Action', kind: 'text' as const,
          display: (row: Row) => (row.applied ? 'Un-apply' : 'Apply'),
          onOpen: (row: Row) => act(row as unknown as Program, row.applied ? 'unapply' : 'apply'),
        }]
      : []),
  ];
  const stored = (d?.creators ?? []).filter((c) => c.id !== null);
  const link = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    try {
      const { creator } = await sendJson<{ creator: { name: string; codes: string[] } }>('POST', `creators/${String(form.get('creator'))}/codes?workspace=${workspace.id}`, { code: String(form.get('code') ?? '') });
      setResult({ message: `${creator.name} now counts ${creator.codes.join(', ')}.`, error: null });
      answer.reload();
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} attribution=${false} />
    <p class="note">A code counts the sessions that landed with it as <code>?ref=</code>, and the orders that carry it as a coupon (the code, or it
      followed by digits), else that landed with it; revenue is those orders' gross revenue (docs: families). The assistant adds creators and
      programs with creators.create and creators.create-program; a program counts once an owner applies it, and its creators then show their
      commission.</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${result.error && html`<p class="error" role="alert">${result.error}</p>`}
    ${result.message && html`<p class="ok" role="status">${result.message}</p>`}
    ${d && html`<${Table} caption=${`Creators from ${d.range.start_date} to ${d.range.end_date}`} columns=${CREATOR_COLUMNS} rows=${d.creators}
        filename="storelens-creators.csv" empty="No creator code in these days." />
      <p class="note">Creators' revenue ${formatValue(d.revenue_basis.revenue, 'money')}; the report credits the creator channel
        ${formatValue(d.revenue_basis.report_revenue, 'money')}. ${d.revenue_basis.reason}</p>
      ${workspace.role === 'owner' && stored.length > 0 && html`<form class="settings-form" onSubmit=${link} aria-labelledby="link-code-title">
        <h2 id="link-code-title">Link a code to a creator</h2>
        <label>Creator <select name="creator">${stored.map((c) => html`<option value=${String(c.id)}>${String(c.name)} (${String(c.code)})</option>`)}</select></label>
        <label>Code <input name="code" required maxlength="40" placeholder="MAYA" /></label>
        <button type="submit">Link code</button>
      </form>`}
      <${Table} caption="Creator programs" columns=${programColumns} rows=${d.programs as unknown as Row[]} filename="storelens-creator-programs.csv"
        empty="No creator programs yet." />`}
  `;
}
