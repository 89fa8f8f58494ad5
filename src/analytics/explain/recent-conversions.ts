import type { Clickhouse } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import { getSettings } from '../../store/app/workspaces.ts';
import { DAY_MS } from '../../kit/calendar/days.ts';
import { UTC } from '../../kit/calendar/zones.ts';
import { planAttribution } from '../attribution/index.ts';
import { pixelScope, type Reader } from '../query-scope.ts';
import { listConversions } from '../queries/conversions/list-conversions.ts';
import { conversionCredits, type CreditedTouch } from '../queries/attribution/conversion-credits.ts';
import { withAdNames, type NamedTouch } from '../touch-names.ts';
import { EXPLAIN_RANGE_DAYS } from './explain-conversion.ts';
import { countedNames } from '../conversion-names.ts';

export interface RecentRequest {
  limit: number;
  /** Sources of the conversions' own sessions, as the `/v3/conversions` source filter. */
  source?: string[];
  /** Conversion name, `*` wildcard; without it the workspace's `conversion_names`. */
  name?: string;
  withPath: boolean;
}

export interface RecentConversion {
  dt: string;
  name: string;
  transaction_id: string;
  revenue: number;
  customer_id: string;
  is_new_customer: string;
  /** The channel of the conversion's own session, as `/v3/conversions` names it. */
  session_source: string;
  /** The touchpoints the report's models see under the workspace settings (with `withPath`). */
  path?: NamedTouch<CreditedTouch>[];
}

const ms = (dt: string) => Date.parse(`${dt.replace(' ', 'T')}Z`);

/**
 * The newest conversions of the last EXPLAIN_RANGE_DAYS days of the counted names (the request's
 * name, else the workspace's conversion_names; cancelled and test orders left out), newest first,
 * filtered to the key's channels as `/v3/conversions` filters them; with `withPath`, each with the
 * path the report's models see under the workspace's window and ignored sources, the key's hidden channels left out (as in
 * `explainConversion`). One path query per conversion, each reading only its own window.
 */
export async function recentConversions(
  stores: { ch: Clickhouse; db: AppDatabase },
  reader: Reader,
  request: RecentRequest,
  now = Date.now(),
): Promise<{ conversions: RecentConversion[]; conversionNames: string[] }> {
  const scope = pixelScope(reader, { startMs: now - EXPLAIN_RANGE_DAYS * DAY_MS, endMs: now, timeZone: UTC }, request.source);
  const settings = await getSettings(stores.db, reader.workspaceId);
  const conversionNames = countedNames(settings, request.name);
  const rows = await listConversions(stores.ch, scope, {
    counted: conversionNames,
    page: { limit: request.limit, offset: 0 },
    newestFirst: true,
    salesOnly: true,
  });
  const recent = rows.slice(0, request.limit).map((r) => ({
    dt: r.dt,
    name: r.name,
    transaction_id: r.transaction_id,
    revenue: Number(r.transaction_gross_revenue) / 100,
    customer_id: r.customer_id,
    is_new_customer: r.is_new_customer,
    session_source: r.adv_source,
  }));
  if (!request.withPath) return { conversions: recent, conversionNames };
  const attribution = planAttribution({}, settings, reader.visibility);
  const visibleChannels = reader.visibility.channels && [...reader.visibility.channels];
  const conversions = await Promise.all(recent.map(async (conversion) => {
    const credits = await conversionCredits(stores.ch, {
      workspaceId: reader.workspaceId,
      transactionId: conversion.transaction_id,
      convStartMs: ms(conversion.dt),
      convEndMs: ms(conversion.dt) + 999,
      attribution,
      visibleChannels,
      excludedTransactions: [],
      models: [],
      bound: {},
    });
    return { ...conversion, path: await withAdNames(stores.ch, reader.workspaceId, credits?.touchpoints ?? []) };
  }));
  return { conversions, conversionNames };
}
