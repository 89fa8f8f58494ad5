import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import {
  DATE_ALIASES,
  PAGE_ALIASES,
  zonedDateShape,
  idParam,
  pagingShape,
  parseWith,
  type QuerySpec,
  sourceListParam,
  text,
} from '../params.ts';

export const eventsQuerySchema = z.object({
  ...zonedDateShape,
  ...pagingShape,
  name: text('Invalid name parameter').optional(),
  session_id: idParam('session_id'),
  visitor_id: idParam('visitor_id'),
  source: sourceListParam(PIXEL_SOURCES),
});

export const eventsQuery: QuerySpec<typeof eventsQuerySchema> = {
  schema: eventsQuerySchema,
  aliases: { ...DATE_ALIASES, ...PAGE_ALIASES, event_name: 'name', sources: 'source' },
  lists: ['source', 'sources'],
};

export const parseEventsQuery = (raw: unknown) => parseWith(eventsQuery, raw);

/** An events request's parameters other than its page (the export reads the same). */
export type EventsFilterQuery = Omit<z.output<typeof eventsQuerySchema>, 'limit' | 'offset'>;
