import { resolveRange } from '../../kit/calendar/range.ts';
import { pixelScope, type QueryScope, type Reader } from '../../analytics/query-scope.ts';
import type { EventFilters } from '../../analytics/queries/events/list-events.ts';
import type { EventsFilterQuery } from './schema.ts';

/** What an events request reads beside its page (the page and the export share it); AccessDenied when the key may not. */
export function eventsRead(reader: Reader, query: EventsFilterQuery): { scope: QueryScope; filters: EventFilters } {
  return {
    scope: pixelScope(reader, resolveRange(query), query.source),
    filters: { name: query.name, sessionId: query.session_id, visitorId: query.visitor_id },
  };
}
