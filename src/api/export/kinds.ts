import type { Range } from '../../kit/calendar/range.ts';
import type { QueryScope, Reader } from '../../analytics/query-scope.ts';
import type { Statement } from '../../analytics/sql.ts';
import { EXPORT_KINDS, type ExportFormat, type ExportKind } from '../../analytics/export/formats.ts';
import { eventsStatement, type EventFilters } from '../../analytics/queries/events/list-events.ts';
import { sessionsStatement, type SessionFilters } from '../../analytics/queries/sessions/list-sessions.ts';
import { conversionsStatement } from '../../analytics/queries/conversions/list-conversions.ts';
import type { ConversionFilters } from '../../analytics/queries/conversions/conversion-scope.ts';
import { adsStatement } from '../../analytics/queries/ads/list-ads.ts';
import type { AdFilters } from '../../analytics/queries/ads/ads-scope.ts';
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

export const ROW_EXPORT_KINDS = EXPORT_KINDS.filter((kind) => kind !== 'mmm') as Exclude<ExportKind, 'mmm'>[];
export type RowExportKind = Exclude<ExportKind, 'mmm'>;

/** One checked export request: the row endpoint's statement over its scope, and the format. */
export interface RowExportPlan {
  kind: RowExportKind;
  statement: Statement;
  range: Range;
  format: ExportFormat;
}

interface RowExport {
  query: QuerySpec;
  /**
   * Checks the parameters (InvalidInput) and the key's permissions (AccessDenied), as the row
   * endpoint does; `alsoKnown` names parameters a surface reads besides (the dashboard's `workspace`).
   */
  plan(reader: Reader, raw: unknown, alsoKnown?: readonly string[]): RowExportPlan;
}

/**
 * A row export is its row endpoint's read (the same scope, filters and statement) without the
 * page, over the same parameters.
 */
function rowExport<Q, F>(
  kind: RowExportKind,
  rows: QuerySpec,
  read: (reader: Reader, query: Q) => { scope: QueryScope; filters: F },
  statement: (scope: QueryScope, filters: F) => Statement,
): [RowExportKind, RowExport] {
  const query = exportQueryOf<Q>(rows);
  return [kind, {
    query,
    plan(reader, raw, alsoKnown) {
      const parsed = query.parse(raw, alsoKnown);
      const { scope, filters } = read(reader, parsed);
      return { kind, statement: statement(scope, filters), range: scope.range, format: parsed.format };
    },
  }];
}

export const ROW_EXPORTS: ReadonlyMap<RowExportKind, RowExport> = new Map([
  rowExport<EventsFilterQuery, EventFilters>('events', eventsQuery, eventsRead, eventsStatement),
  rowExport<SessionsFilterQuery, SessionFilters>('sessions', sessionsQuery, sessionsRead, sessionsStatement),
  rowExport<ConversionsFilterQuery, ConversionFilters>('conversions', conversionsQuery, conversionsRead, conversionsStatement),
  rowExport<AdsFilterQuery, AdFilters>('ads', adsQuery, adsRead, adsStatement),
]);
