import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import { ATTRIBUTION_DATES } from '../../analytics/attribution/index.ts';
import type { ExplainRequest } from '../../analytics/explain/explain-conversion.ts';
import type { RangeText } from '../../kit/calendar/range.ts';
import { DATE_ALIASES, choice, parseWith, sourceListParam, zonedDateShape, type QuerySpec } from '../params.ts';
import { windowParam } from '../report/schema.ts';

const TRANSACTION_MESSAGE = 'Invalid transaction_id parameter';

export const attributionQuerySchema = z.object({
  transaction_id: z
    .string({ error: (issue) => (issue.input === undefined ? 'transaction_id is required' : TRANSACTION_MESSAGE) })
    .min(1, { error: 'transaction_id is required' })
    .max(2000, { error: TRANSACTION_MESSAGE }),
  ...zonedDateShape,
  attribution_window: windowParam,
  attribution_date: choice('attribution_date', ATTRIBUTION_DATES),
  exclude_source: sourceListParam(PIXEL_SOURCES),
});

export const attributionQuery: QuerySpec<typeof attributionQuerySchema> = {
  schema: attributionQuerySchema,
  aliases: { ...DATE_ALIASES, exclude_sources: 'exclude_source' },
  lists: ['exclude_source', 'exclude_sources'],
};

export const parseAttributionQuery = (raw: unknown, alsoKnown?: readonly string[]): ExplainRequest & RangeText => parseWith(attributionQuery, raw, alsoKnown);
