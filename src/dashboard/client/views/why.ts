/**
 * The "why" panel of one order: every model's share per source side by side, the Markov chain's
 * removal effects and what data_driven says each channel added, as /v3/attribution answers them
 * for the view's range and attribution.
 */
import { html } from 'htm/preact';
import { useData, rangedParams } from '../data.ts';
import { WhyTables, type WhyAnswer } from '../../../ui/why-tables.ts';
import type { Route } from '../router.ts';
import { Status } from './common.ts';

const WHY_PARAMS = ['workspace', 'attribution_window', 'attribution_date', 'exclude_source'];

export function Why({ route, zone, transactionId }: { route: Route; zone: string; transactionId: string }) {
  const params = rangedParams(route, zone, WHY_PARAMS);
  params.set('transaction_id', transactionId);
  const answer = useData<WhyAnswer>('conversions/why', params);
  if (!answer.data) return html`<${Status} loading=${answer.loading} error=${answer.error} />`;
  return html`<${WhyTables} answer=${answer.data} downloads=${true} />`;
}
