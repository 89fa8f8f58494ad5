import { z } from 'zod';
import { COHORT_BREAKDOWNS } from '../../analytics/customers.ts';
import { windowParam } from '../report/schema.ts';
import { DATE_ALIASES, choice, parseWith, zonedDateShape, type QuerySpec } from '../params.ts';

export const customersQuerySchema = z.object({
  ...zonedDateShape,
  breakdown: choice('breakdown', COHORT_BREAKDOWNS),
  attribution_window: windowParam,
});

export const customersQuery: QuerySpec<typeof customersQuerySchema> = {
  schema: customersQuerySchema,
  aliases: { ...DATE_ALIASES },
};

export const parseCustomersQuery = (raw: unknown, alsoKnown?: readonly string[]) => parseWith(customersQuery, raw, alsoKnown);
