import { z } from 'zod';
import { createAudited, present, requireObject, updateAudited, listTool } from '../kit/objects.ts';
import { InvalidRequest, dayArg, idArg, shortText, writeTool } from '../kit/tool.ts';
import { offerOpportunitiesTool } from './offer-opportunities.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'offer';
const TYPES = ['percentage_discount', 'fixed_discount', 'free_shipping', 'bundle', 'gift_with_purchase'] as const;
const STATUSES = ['draft', 'scheduled', 'active', 'paused', 'ended'] as const;

const configArg = z
  .object({
    value: z.number().min(0).max(1_000_000).optional().describe('Percent for percentage_discount, cents for fixed_discount'),
    minimum_order: z.number().int().min(0).optional().describe('In cents'),
    product_handles: z.array(z.string().max(200)).max(200).optional().describe('Default: all products'),
  })
  .strict();
const segmentArg = idArg('target segment').optional();

interface OfferTerms {
  type: (typeof TYPES)[number];
  config?: { value?: number };
  start_date?: string;
  end_date?: string;
}

/**
 * Terms an offer cannot be run with, checked on the offer as it would be stored (an update merged
 * into the stored offer): a percentage takes 1 to 100, a fixed discount a whole number of cents,
 * the other kinds no value; the last day is not before the first.
 */
function checkTerms(offer: OfferTerms): void {
  const value = offer.config?.value;
  if (offer.type === 'percentage_discount' && (value === undefined || value <= 0 || value > 100)) {
    throw new InvalidRequest('A percentage_discount needs config.value, a percent above 0 and at most 100');
  }
  if (offer.type === 'fixed_discount' && (value === undefined || !Number.isInteger(value) || value <= 0)) {
    throw new InvalidRequest('A fixed_discount needs config.value, a whole number of cents above 0');
  }
  if (!['percentage_discount', 'fixed_discount'].includes(offer.type) && value !== undefined) {
    throw new InvalidRequest(`A ${offer.type} offer takes no config.value`);
  }
  if (offer.start_date && offer.end_date && offer.end_date < offer.start_date) throw new InvalidRequest('end_date must not be before start_date');
}

export const offerTools = [
  listTool(
    'offers.get-offers',
    'Get offers',
    'Offers (discounts, free shipping, bundles) with status, configuration, target segment and dates.',
    'Offers stored with offers.create and offers.update.',
    KIND,
    'offers',
  ),
  offerOpportunitiesTool,
  writeTool(
    'offers.create',
    'Create an offer draft',
    'Creates an offer draft, inert until a person activates it; no promo code.',
    'Stored in the workspace as a draft.',
    z
      .object({
        name: shortText('Name of the offer'),
        type: z.enum(TYPES).describe('Offer kind'),
        config: configArg.default({}).describe('Offer terms'),
        target_segment_id: segmentArg.describe('Default: all customers'),
        start_date: dayArg('start_date').optional().describe('First day'),
        end_date: dayArg('end_date').optional().describe('Last day'),
      })
      .strict(),
    z.strictObject({ offer: out.stored }),
    async (ctx, input) => {
      checkTerms(input);
      if (input.target_segment_id) await requireObject(ctx, 'segment', input.target_segment_id, 'Segment');
      return { offer: present(await createAudited(ctx, 'offers.create', KIND, { target_segment_id: '', start_date: '', end_date: '', ...input, status: 'draft' })) };
    },
  ),
  writeTool(
    'offers.update',
    'Update an offer',
    'Changes name, status, configuration, target segment and/or dates of an offer; not promo codes.',
    'Stored in the workspace.',
    z
      .object({
        id: idArg('offer'),
        name: shortText('New name').optional(),
        status: z.enum(STATUSES).optional().describe('New status'),
        config: configArg.optional().describe('Offer terms'),
        target_segment_id: segmentArg,
        start_date: dayArg('start_date').optional().describe('First day'),
        end_date: dayArg('end_date').optional().describe('Last day'),
      })
      .strict(),
    z.strictObject({ offer: out.stored }),
    async (ctx, { id, ...changes }) => {
      const current = await requireObject<OfferTerms>(ctx, KIND, id, 'Offer');
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      checkTerms({ ...current.data, ...defined });
      if (changes.target_segment_id) await requireObject(ctx, 'segment', changes.target_segment_id, 'Segment');
      return { offer: present(await updateAudited(ctx, 'offers.update', KIND, id, changes, 'Offer')) };
    },
  ),
];
