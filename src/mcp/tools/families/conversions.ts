import { z } from 'zod';
import { oneOf } from '../../../kit/choices.ts';
import { PIXEL_SOURCES } from '../../../analytics/sources.ts';
import { expandSourceGroups } from '../../../analytics/permissions.ts';
import { recentConversions } from '../../../analytics/explain/recent-conversions.ts';
import { readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';
import { TOUCHPOINT } from './attribution.ts';

export const conversionTools = [
  readTool(
    'conversions.get-recent',
    'Latest conversions',
    'Newest conversions first (90 days), by their own session channel; with_path adds the touchpoints that led to each.',
    'Conversions and traffic; cancelled and test orders left out.',
    z
      .object({
        limit: z.number().int().min(1).max(20).default(5).describe('How many'),
        source: z.array(z.string().max(40)).max(40).optional().describe('Only these session sources'),
        name: z.string().trim().min(1).max(200).optional().describe('Conversion name, * wildcard'),
        with_path: z.boolean().default(false).describe('Add each path'),
      })
      .strict(),
    z.strictObject({
      conversions: out.list({
        dt: out.str, name: out.str, transaction_id: out.str, revenue: out.num, customer_id: out.str, is_new_customer: out.str,
        session_source: out.str, path: out.list(TOUCHPOINT),
      }),
      settings_applied: out.namesApplied,
    }),
    async (ctx, input) => {
      const source = input.source && expandSourceGroups(input.source, ctx.visibility).map((s) => oneOf('source', s, PIXEL_SOURCES));
      const recent = await recentConversions({ ch: ctx.ch, db: ctx.db }, ctx, { limit: input.limit, source, name: input.name, withPath: input.with_path }, ctx.now());
      return { conversions: recent.conversions, settings_applied: { conversion_names: recent.conversionNames } };
    },
  ),
];
