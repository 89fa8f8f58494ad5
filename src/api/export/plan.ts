import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clickhouse } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import type { Reader } from '../../analytics/query-scope.ts';
import type { ExportKind } from '../../analytics/export/formats.ts';
import { ROW_EXPORTS, type RowExportKind, type RowExportPlan } from './kinds.ts';
import { planMmm, sendMmm, type MmmPlan } from './mmm.ts';
import { sendRowExport } from './send.ts';

export type ExportPlan = RowExportPlan | MmmPlan;

/**
 * Checks an export request for a reader, whichever surface asks (the data API, a signed link, the
 * dashboard, the tool that signs links): parameters (InvalidInput) and permissions (AccessDenied).
 */
export function planExport(reader: Reader, kind: ExportKind, raw: unknown, alsoKnown: readonly string[] = []): ExportPlan {
  return kind === 'mmm' ? planMmm(reader, raw, alsoKnown) : ROW_EXPORTS.get(kind as RowExportKind)!.plan(reader, raw, alsoKnown);
}

/** Answers a checked export: rows streamed from the engine, or the MMM CSV (returned for the reply to send). */
export async function sendExport(
  stores: { ch: Clickhouse; db: AppDatabase },
  plan: ExportPlan,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | undefined> {
  if (plan.kind === 'mmm') return sendMmm(stores, plan, reply);
  await sendRowExport(stores.ch, plan, request, reply);
  return undefined;
}
