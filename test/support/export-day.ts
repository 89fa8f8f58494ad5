/**
 * A day of two channels for the export tests: on 2026-03-01 (UTC) a facebook session with purchase
 * T1 (10.00) and a google session with purchase T2 (20.00), and one ad row of each (facebook 5.00,
 * 50 impressions, 5 clicks; google 7.00, 70, 7).
 */
import { insertRows } from '../helper.ts';
import type { Stores } from '../../src/store/index.ts';

export async function insertTwoChannelDay(stores: Stores, workspaceId: number): Promise<void> {
  await insertRows(stores, 'events', [
    { store_id: workspaceId, session_id: 1, visitor_id: 1, dt: '2026-03-01 09:00:00', name: 'pageview', adv_source: 'facebook' },
    { store_id: workspaceId, session_id: 2, visitor_id: 2, dt: '2026-03-01 10:00:00', name: 'pageview', adv_source: 'google' },
  ]);
  await insertRows(stores, 'conversions', [
    { store_id: workspaceId, session_id: 1, visitor_id: 1, dt: '2026-03-01 09:30:00', name: 'purchase', transaction_id: 'T1', transaction_gross_revenue: 1000 },
    { store_id: workspaceId, session_id: 2, visitor_id: 2, dt: '2026-03-01 10:30:00', name: 'purchase', transaction_id: 'T2', transaction_gross_revenue: 2000 },
  ]);
  await insertRows(stores, 'ads', [
    { store_id: workspaceId, dt: '2026-03-01', source: 'facebook', ad_id: 'f1', spend: 500, impressions: 50, clicks: 5, version: 1 },
    { store_id: workspaceId, dt: '2026-03-01', source: 'google', ad_id: 'g1', spend: 700, impressions: 70, clicks: 7, version: 1 },
  ]);
}
