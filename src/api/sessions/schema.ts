import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import { DATE_ALIASES, PAGE_ALIASES, zonedDateShape, idParam, pagingShape, parseWith, sourceListParam, type QuerySpec } from '../params.ts';

export const sessionsQuerySchema = z.object({
  ...zonedDateShape,
  ...pagingShape,
  session_id: idParam('session_id'),
  visitor_id: idParam('visitor_id'),
  source: sourceListParam(PIXEL_SOURCES),
});

export const sessionsQuery: QuerySpec<typeof sessionsQuerySchema> = {
  schema: sessionsQuerySchema,
  aliases: { ...DATE_ALIASES, ...PAGE_ALIASES, sources: 'source' },
  lists: ['source', 'sources'],
};

export const parseSessionsQuery = (raw: unknown) => parseWith(sessionsQuery, raw);

/** A sessions request's parameters other than its page (the export reads the same). */
export type SessionsFilterQuery = Omit<z.output<typeof sessionsQuerySchema>, 'limit' | 'offset'>;
