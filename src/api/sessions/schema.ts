import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import { DATE_ALIASES, PAGE_ALIASES, dateShape, idParam, normalizeQuery, pagingShape, parseQuery, sourceListParam } from '../params.ts';

export const sessionsQuerySchema = z.object({
  ...dateShape,
  ...pagingShape,
  session_id: idParam('session_id'),
  visitor_id: idParam('visitor_id'),
  source: sourceListParam(PIXEL_SOURCES),
});

/** Parameter aliases and list parameters of /v3/sessions (also listed in the OpenAPI document). */
export const sessionsQueryOptions = {
  aliases: { ...DATE_ALIASES, ...PAGE_ALIASES, sources: 'source' },
  lists: ['source', 'sources'],
};

export function parseSessionsQuery(raw: unknown) {
  const query = normalizeQuery(raw, sessionsQueryOptions);
  return parseQuery(sessionsQuerySchema, query);
}
