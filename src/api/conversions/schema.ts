import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import { CONVERSION_DIMENSION_NAMES, type ConversionDimension } from '../../analytics/queries/conversions/group-conversions.ts';
import {
  DATE_ALIASES,
  PAGE_ALIASES,
  dateShape,
  normalizeQuery,
  pagingShape,
  parseQuery,
  sourceListParam,
  text,
} from '../params.ts';

const NEW_CUSTOMER_MESSAGE = 'is_new_customer must be one of 0,1,true,false';
const NEW_CUSTOMER_VALUES: Record<string, 0 | 1> = { '0': 0, '1': 1, true: 1, false: 0 };

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
  ...dateShape,
  ...pagingShape,
  name: text('Invalid name parameter').optional(),
  source: sourceListParam(PIXEL_SOURCES),
  exclude_source: sourceListParam(PIXEL_SOURCES),
  group_by: groupByParam,
  transaction_id: text('Invalid transaction_id parameter').optional(),
  customer_id: text('Invalid customer_id parameter').optional(),
  is_new_customer: z
    .string({ error: NEW_CUSTOMER_MESSAGE })
    .refine((v) => v in NEW_CUSTOMER_VALUES, { error: NEW_CUSTOMER_MESSAGE })
    .transform((v) => NEW_CUSTOMER_VALUES[v])
    .optional(),
});

/** Parameter aliases and list parameters of /v3/conversions (also listed in the OpenAPI document). */
export const conversionsQueryOptions = {
  aliases: { ...DATE_ALIASES, ...PAGE_ALIASES, sources: 'source', exclude_sources: 'exclude_source' },
  lists: ['source', 'sources', 'exclude_source', 'exclude_sources', 'group_by'],
};

export function parseConversionsQuery(raw: unknown) {
  const query = normalizeQuery(raw, conversionsQueryOptions);
  return parseQuery(conversionsQuerySchema, query);
}
