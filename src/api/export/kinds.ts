import type { Range } from '../../kit/range.ts';
import type { Reader } from '../../analytics/query-scope.ts';
import type { Statement } from '../../analytics/sql.ts';
import type { ExportFormat } from '../../analytics/export/formats.ts';
import { eventsStatement } from '../../analytics/queries/events/list-events.ts';
import { sessionsStatement } from '../../analytics/queries/sessions/list-sessions.ts';
import { conversionsStatement } from '../../analytics/queries/conversions/list-conversions.ts';
import { adsStatement } from '../../analytics/queries/ads/list-ads.ts';
import type { QuerySpec } from '../params.ts';
import { eventsQuery, type EventsFilterQuery } from '../events/schema.ts';
import { sessionsQuery, type SessionsFilterQuery } from '../sessions/schema.ts';
import { conversionsQuery, type ConversionsFilterQuery } from '../conversions/schema.ts';
import { adsQuery, type AdsFilterQuery } from '../ads/schema.ts';
import { eventsRead } from '../events/read.ts';
import { sessionsRead } from '../sessions/read.ts';
import { conversionsRead } from '../conversions/read.ts';
import { adsRead } from '../ads/read.ts';
import { exportQueryOf } from './schema.ts';

export const ROW_EXPORT_KINDS = ['events', 'sessions', 'conversions', 'ads'] as const;
export type RowExportKind = (typeof ROW_EXPORT_KINDS)[number];

/** One checked export request: the row endpoint's statement over its scope, and the format. */
export interface RowExportPlan {
  kind: RowExportKind;
  statement: Statement;
  range: Range;
  format: ExportFormat;
}

interface RowExport {
  query: QuerySpec;
  /** Checks the parameters (InvalidInput) and the key's permissions (AccessDenied), as the row endpoint does. */
  plan(reader: Reader, raw: unknown): RowExportPlan;
}

const events = exportQueryOf<EventsFilterQuery>(eventsQuery);
const sessions = exportQueryOf<SessionsFilterQuery>(sessionsQuery);
const conversions = exportQueryOf<ConversionsFilterQuery>(conversionsQuery);
const ads = exportQueryOf<AdsFilterQuery>(adsQuery);

/** Each row export is its row endpoint's read (the same scope, filters and statement) without the page. */
export const ROW_EXPORTS: ReadonlyMap<RowExportKind, RowExport> = new Map<RowExportKind, RowExport>([
  ['events', { query: events, plan(reader, raw) {
    const query = events.parse(raw);
    const { scope, filters } = eventsRead(reader, query);
    return { kind: 'events', statement: eventsStatement(scope, filters), range: scope.range, format: query.format };
  } }],
  ['sessions', { query: sessions, plan(reader, raw) {
    const query = sessions.parse(raw);
    const { scope, filters } = sessionsRead(reader, query);
    return { kind: 'sessions', statement: sessionsStatement(scope, filters), range: scope.range, format: query.format };
  } }],
  ['conversions', { query: conversions, plan(reader, raw) {
    const query = conversions.parse(raw);
    const { scope, filters } = conversionsRead(reader, query);
    return { kind: 'conversions', statement: conversionsStatement(scope, filters), range: scope.range, format: query.format };
  } }],
  ['ads', { query: ads, plan(reader, raw) {
    const query = ads.parse(raw);
    const { scope, filters } = adsRead(reader, query);
    return { kind: 'ads', statement: adsStatement(scope, filters), range: scope.range, format: query.format };
  } }],
]);
