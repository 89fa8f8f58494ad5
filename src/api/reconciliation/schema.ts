import { z } from 'zod';
import { DATE_ALIASES, parseWith, zonedDateShape, type QuerySpec } from '../params.ts';

export const reconciliationQuerySchema = z.object({ ...zonedDateShape });

export const reconciliationQuery: QuerySpec<typeof reconciliationQuerySchema> = {
  schema: reconciliationQuerySchema,
  aliases: { ...DATE_ALIASES },
};

export const parseReconciliationQuery = (raw: unknown, alsoKnown?: readonly string[]) => parseWith(reconciliationQuery, raw, alsoKnown);
