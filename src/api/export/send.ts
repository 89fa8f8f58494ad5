import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clickhouse } from '../../store/clickhouse.ts';
import { formatDay } from '../../kit/calendar/days.ts';
import type { Range } from '../../kit/calendar/range.ts';
import { ClientGone, sendStream } from '../../http/stream-reply.ts';
import { FORMATS } from '../../analytics/export/formats.ts';
import { streamRows } from '../../analytics/export/stream-rows.ts';
import type { RowExportPlan } from './kinds.ts';

/** `storelens-events-2026-03-01_2026-03-31.csv`: what the download is, and which days. */
export function downloadName(kind: string, range: Range, extension: string): string {
  return `storelens-${kind}-${formatDay(range.startMs, range.timeZone)}_${formatDay(range.endMs, range.timeZone)}.${extension}`;
}

/**
 * Answers a checked row export as a download streamed from the engine. A failure before the
 * first byte is thrown (the route answers it: 503 for a store over its time limit); after it, the
 * connection is cut and the failure logged: a client that left at info, anything else as a warning.
 */
export async function sendRowExport(ch: Clickhouse, plan: RowExportPlan, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const format = FORMATS[plan.format];
  const head = { contentType: format.contentType, filename: downloadName(plan.kind, plan.range, format.extension) };
  try {
    await streamRows(ch, `export-${plan.kind}`, plan.statement, { format: plan.format }, (chunks) => sendStream(reply, head, chunks));
  } catch (error) {
    if (!reply.sent) throw error;
    if (error instanceof ClientGone) request.log.info({ export: plan.kind, reason: error.message }, 'export stopped: client gone');
    else request.log.warn({ export: plan.kind, err: error }, 'export cut off mid-stream');
  }
}
