import { z } from 'zod';
import { findWorkspace } from '../../../store/app/workspaces.ts';
import { reconcile } from '../../../analytics/reconciliation.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const reconciliationTools = [
  readTool(
    'reconciliation.get-data',
    'Storelens vs shop',
    'Does Storelens agree with the shop? Per day, shop orders and revenue beside the report\'s, each difference named ' +
      '(cancelled, test, unmatched, pixel-only, excluded, refunds); unexplained_revenue is 0 when they agree.',
    'Orders and the pixel\'s purchases (traffic), beside the report under the workspace settings.',
    z.object(rangeArgs).strict(),
    z.strictObject({
      reconciliation: out.fields({
        ...out.range, currency: out.str, days: out.storedList, totals: out.open, settings_applied: out.namesApplied,
      }),
    }),
    async (ctx, input) => {
      const workspace = await findWorkspace(ctx.db, ctx.workspaceId);
      const range = toolRange(ctx, input);
      const { data, totals, conversionNames } = await reconcile(ctx, ctx, range, ctx.now());
      return {
        reconciliation: { ...rangeOut(range), currency: workspace!.currency, days: data, totals, settings_applied: { conversion_names: conversionNames } },
      };
    },
  ),
];
