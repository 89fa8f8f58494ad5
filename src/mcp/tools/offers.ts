import { z } from 'zod';
import { createAudited, present, requireObject, updateAudited, listTool } from './objects.ts';
import { idArg, shortText, writeTool } from './types.ts';
import { offerOpportunitiesTool } from './offer-opportunities.ts';

const KIND = 'offer';
const TYPES = ['percentage_discount', 'fixed_discount', 'free_shipping', 'bundle', 'gift_with_purchase'] as const;
const STATUSES = ['draft', 'scheduled', 'active', 'paused', 'ended'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const configArg = z
  .object({
    value: z.number().min(0).max(1_000_000).optional().describe('Discount size: percent for percentage_discount, cents for fixed_discount'),
    minimum_order: z.number().int().min(0).optional().describe('Minimum order value in cents'),
    product_handles: z.array(z.string().max(200)).max(200).optional().describe('Products the offer applies to (all when omitted)'),
  })
  .strict()
  .describe('Offer parameters');
const segmentArg = idArg('target segment').optional();
const dateArg = (what: string) => z.string().regex(DAY, { error: `${what} must be YYYY-MM-DD` }).describe(`${what}, YYYY-MM-DD`);

export const offerTools = [
  listTool(
    'offers.get-offers',
    'Get offers',
    'Lists the offers (discounts, free shipping, bundles) with status, configuration, target segment and dates.',
    KIND,
    'offers',
  ),
  offerOpportunitiesTool,
  writeTool(
    'offers.create',
    'Create an offer draft',
    'Creates an offer as a draft; it does nothing for shoppers until a person activates it. No promo code is created here.',
    z
      .object({
        name: shortText('Name of the offer'),
        type: z.enum(TYPES).describe('Kind of offer'),
        config: configArg.default({}),
        target_segment_id: segmentArg.describe('Segment the offer targets (all customers when omitted)'),
        start_date: dateArg('start_date').optional(),
        end_date: dateArg('end_date').optional(),
      })
      .strict(),
    async (ctx, input) => {
      if (input.target_segment_id) await requireObject(ctx, 'segment', input.target_segment_id, 'Segment');
      return { offer: present(await createAudited(ctx, 'offers.create', KIND, { target_segment_id: '', start_date: '', end_date: '', ...input, status: 'draft' })) };
    },
  ),
  writeTool(
    'offers.update',
    'Update an offer',
    'Changes name, status, configuration, target segment and/or start and end dates of an offer. Promo codes cannot be changed here.',
    z
      .object({
        id: idArg('offer'),
        name: shortText('New name').optional(),
        status: z.enum(STATUSES).optional().describe('New status'),
        config: configArg.optional(),
        target_segment_id: segmentArg.describe('New target segment'),
        start_date: dateArg('start_date').optional(),
        end_date: dateArg('end_date').optional(),
      })
      .strict(),
    async (ctx, { id, ...changes }) => {
      if (changes.target_segment_id) await requireObject(ctx, 'segment', changes.target_segment_id, 'Segment');
      return { offer: present(await updateAudited(ctx, 'offers.update', KIND, id, changes, 'Offer')) };
    },
  ),
];
