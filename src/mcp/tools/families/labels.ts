import { z } from 'zod';
import { adCreatives } from '../../../analytics/queries/library/ad-creatives.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { UTC } from '../../../kit/calendar/zones.ts';
import { audit, checkRoomFor, present, listTool } from '../kit/objects.ts';
import { CHANNELS } from '../../../analytics/stored-channels.ts';
import { adScope } from '../../../analytics/query-scope.ts';
import { writeTool } from '../kit/tool.ts';
import { createObject, findObjectByKey, updateObject } from '../../../store/app/tool-objects.ts';
import { Conflict, NotFound } from '../../../kit/errors.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'asset_label';
type AssetLabels = { asset_id: string; labels: string[]; [CHANNELS]?: string[] };

export const labelTools = [
  listTool(
    'labels.get-labels',
    'Get creative labels',
    'Labels of creative assets (hook, format, offer, ...), one entry per asset.',
    'Labels set with labels.label-asset.',
    KIND,
    'labels',
  ),
  writeTool(
    'labels.label-asset',
    'Label a creative',
    'Sets the labels of a creative (ad id from library.get-assets); existing labels stay unless force is true.',
    'Ads from ad rows; the labels are stored in the workspace.',
    z
      .object({
        asset_id: z.string().trim().min(1).max(200).describe('Ad id from library.get-assets'),
        labels: z.array(z.string().trim().min(1).max(60)).min(1).max(30).describe('Labels to set'),
        force: z.boolean().default(false).describe('Replace existing labels'),
      })
      .strict(),
    z.strictObject({ label: out.stored }),
    async (ctx, input) => {
      const known = await adCreatives(ctx.ch, adScope(ctx, { startMs: 0, endMs: ctx.now() + DAY_MS, timeZone: UTC }), [input.asset_id]);
      if (known.length === 0) throw new NotFound(`Asset ${input.asset_id} not found in the ad data`);
      const labels = [...new Set(input.labels)];
      const existing = await findObjectByKey<AssetLabels>(ctx.db, ctx.workspaceId, KIND, input.asset_id);
      if (existing && !input.force) {
        throw new Conflict(`Asset ${input.asset_id} is already labelled (${existing.data.labels.join(', ')}); set force to true to replace`);
      }
      // The creative's platform, kept so that keys that do not see it never read its labels.
      const channels = [...new Set(known.map((row) => row.source))];
      if (!existing) await checkRoomFor(ctx, KIND);
      const saved = existing
        ? await updateObject<AssetLabels>(ctx.db, ctx.workspaceId, KIND, existing.id, { labels, [CHANNELS]: channels })
        : await createObject<AssetLabels>(ctx.db, ctx.workspaceId, KIND, { asset_id: input.asset_id, labels, [CHANNELS]: channels }, { uniqueKey: input.asset_id });
      await audit(ctx, 'labels.label-asset', `${KIND}:${saved!.id}`, { asset_id: input.asset_id, labels, replaced: existing?.data.labels ?? null });
      return { label: present(saved!) };
    },
  ),
];
