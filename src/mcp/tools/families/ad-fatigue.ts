import { z } from 'zod';
import { dailyAdDelivery } from '../../../analytics/queries/ad-fatigue/daily-ad-delivery.ts';
import { scoreAds } from '../../../analytics/ad-fatigue.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { adScope } from '../../../analytics/query-scope.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const adFatigueTools = [
  readTool(
    'ad-fatigue.get-scores',
    'Ad fatigue scores',
    'Ads scored 0-100 for creative fatigue (CTR decay and frequency growth, first vs second half of their ' +
      'days in the range), highest first.',
    'Daily ad delivery (impressions, clicks, reach) from ad rows.',
    z
      .object({
        ...rangeArgs,
        min_days: z.number().int().min(2).max(365).default(6).describe('Fewest days with delivery'),
        limit: z.number().int().min(1).max(500).default(50).describe('Ads to return'),
      })
      .strict(),
    z.strictObject({
      ad_fatigue: out.fields({
        ...out.range,
        ads: out.list({
          source: out.str, ad_id: out.str, ad_name: out.str, campaign_name: out.str, days: out.num, spend: out.num, ctr_early: out.numOrNull, ctr_late: out.numOrNull,
          ctr_change: out.numOrNull, frequency_early: out.numOrNull, frequency_late: out.numOrNull, frequency_change: out.numOrNull, score: out.numOrNull,
        }),
      }),
    }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const ads = scoreAds(await dailyAdDelivery(ctx.ch, adScope(ctx, range)), input.min_days).slice(0, input.limit);
      return { ad_fatigue: { ...rangeOut(range), ads } };
    },
  ),
];
