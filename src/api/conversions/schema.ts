import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import { CONVERSION_DIMENSION_NAMES, type ConversionDimension } from '../../analytics/queries/conversions/group-conversions.ts';
import {
  DATE_ALIASES,
  PAGE_ALIASES,
  zonedDateShape,
  pagingShape,
  parseWith,
  type QuerySpec,
  sourceListParam,
  text,
} from '../params.ts';

const NEW_CUSTOMER_MESSAGE = 'is_new_customer must be one of 0,1,true,false';
const NEW_CUSTOMER_VALUES = new Map<string, 0 | 1>([['0', 0], ['1', 1], ['true', 1], ['false', 0]]);

const GROUP_BY_MESSAGE = `group_by accepts a comma-separated list of: ${CONVERSION_DIMENSION_NAMES.join(', ')}`;

const groupByParam = z
  .string({ error: GROUP_BY_MESSAGE })
  .max(500, { error: GROUP_BY_MESSAGE })
  .transform((raw, ctx) => {
    const dims = [...new Set(raw.split(',').map((d) => d.trim()).filter(Boolean))];
    const unknown = dims.find((d) => !(CONVERSION_DIMENSION_NAMES as string[]).includes(d));
    if (unknown !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown group_by dimension: ${unknown}. Accepted dimensions: ${CONVERSION_DIMENSION_NAMES.join(', ')}`,
      });
      return z.NEVER;
    }
    return dims as ConversionDimension[];
  })
  .optional();

export const conversionsQuerySchema = z.object({
  ...zonedDateShape,
  ...pagingShape,
  name: text('Invalid name parameter').optional(),
  source: sourceListParam(PIXEL_SOURCES),
  exclude_source: sourceListParam(PIXEL_SOURCES),
  group_by: groupByParam,
  transaction_id: text('Invalid transaction_id parameter').optional(),
  customer_id: text('Invalid customer_id parameter').optional(),
  is_new_customer: z
    .string({ error: NEW_CUSTOMER_MESSAGE })
    .refine((v) => NEW_CUSTOMER_VALUES.has(v), { error: NEW_CUSTOMER_MESSAGE })
    .transform((v) => NEW_CUSTOMER_VALUES.get(v)!)
    .optional(),
});

export const conversionsQuery: QuerySpec<typeof conversionsQuerySchema> = {
  schema: conversionsQuerySchema,
  aliases: { ...DATE_ALIASES, ...PAGE_ALIASES, sources: 'source', exclude_sources: 'exclude_source' },
  lists: ['source', 'sources', 'exclude_source', 'exclude_sources', 'group_by'],
};

export const parseConversionsQuery = (raw: unknown, alsoKnown?: readonly string[]) => parseWith(conversionsQuery, raw, alsoKnown);

/** A conversions request's parameters other than its page and grouping (the export reads the same). */
export type ConversionsFilterQuery = Omit<z.output<typeof conversionsQuerySchema>, 'limit' | 'offset' | 'group_by'>;
