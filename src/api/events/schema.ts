import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import {
  DATE_ALIASES,
  PAGE_ALIASES,
  dateShape,
  idParam,
  normalizeQuery,
  pagingShape,
  parseQuery,
  sourceListParam,
  text,
} from '../params.ts';

export const eventsQuerySchema = z.object({
  ...dateShape,
  ...pagingShape,
  name: text('Invalid name parameter').optional(),
  session_id: idParam('session_id'),
  visitor_id: idParam('visitor_id'),
  source: sourceListParam(PIXEL_SOURCES),
});

/** Parameter aliases and list parameters of /v3/events (also listed in the OpenAPI document). */
export const eventsQueryOptions = {
  aliases: { ...DATE_ALIASES, ...PAGE_ALIASES, event_name: 'name', sources: 'source' },
  lists: ['source', 'sources'],
};

export function parseEventsQuery(raw: unknown) {
  return parseQuery(eventsQuerySchema, normalizeQuery(raw, eventsQueryOptions));
}
