import { resolveRange } from '../../kit/calendar/range.ts';
import { pixelScope, type QueryScope, type Reader } from '../../analytics/query-scope.ts';
import type { SessionFilters } from '../../analytics/queries/sessions/list-sessions.ts';
import type { SessionsFilterQuery } from './schema.ts';

/** What a sessions request reads beside its page (the page and the export share it); AccessDenied when the key may not. */
export function sessionsRead(reader: Reader, query: SessionsFilterQuery): { scope: QueryScope; filters: SessionFilters } {
  return {
    scope: pixelScope(reader, resolveRange(query), query.source),
    filters: { sessionId: query.session_id, visitorId: query.visitor_id },
  };
}
