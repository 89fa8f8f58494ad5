import { z } from 'zod';
import { createAudited, present, updateAudited, listTool } from '../kit/objects.ts';
import { InvalidRequest, idArg, longText, shortText, tagsArg, writeTool, type ToolContext } from '../kit/tool.ts';
import { knownAdIds } from '../../../analytics/queries/ads/known-ad-ids.ts';
import { CHANNELS } from '../../../analytics/stored-channels.ts';
import { adSources } from '../../../analytics/queries/library/ad-sources.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'marketing_angle';
const STATUSES = ['idea', 'testing', 'winning', 'paused', 'retired'] as const;
/**
 * The ad platforms of the linked creatives, kept with the angle (see analytics/stored-channels.ts),
 * once every linked id is an ad the workspace's ads rows know.
 */
async function linkedChannels(ctx: ToolContext, adIds: string[]) {
  const known = await knownAdIds(ctx.ch, ctx.workspaceId, adIds);
  const unknown = adIds.filter((id) => !known.has(id));
  if (unknown.length) throw new InvalidRequest(`No ad of this workspace has the id(s) ${unknown.join(', ')}: linked creatives are ad ids from the ads rows`);
  return { [CHANNELS]: await adSources(ctx.ch, ctx.workspaceId, adIds) };
}

const creativesArg = z.array(z.string().trim().min(1).max(200)).max(100).describe('Ad ids of creatives');

export const marketingAngleTools = [
  listTool(
    'marketing-angles.get-angles',
    'Get marketing angles',
    'Marketing angles (messaging hypotheses) with status, tags and linked creatives.',
    'Angles stored with marketing-angles.create and marketing-angles.update.',
    KIND,
    'angles',
  ),
  writeTool(
    'marketing-angles.create',
    'Create a marketing angle',
    'Records a new marketing angle with status idea.',
    'Stored in the workspace.',
    z
      .object({
        title: shortText('Short name of the angle'),
        summary: longText('The message in one or two sentences', 2000).default(''),
        notes: longText('Free notes', 10_000).default(''),
        tags: tagsArg.default([]),
        linked_creatives: creativesArg.default([]),
      })
      .strict(),
    z.strictObject({ angle: out.stored }),
    async (ctx, input) => ({
      angle: present(await createAudited(ctx, 'marketing-angles.create', KIND, { ...input, status: 'idea', ...(await linkedChannels(ctx, input.linked_creatives)) })),
    }),
  ),
  writeTool(
    'marketing-angles.update',
    'Update a marketing angle',
    'Changes title, summary, notes, status, tags and/or linked creatives of an angle.',
    'Stored in the workspace.',
    z
      .object({
        id: idArg('marketing angle'),
        title: shortText('New title').optional(),
        summary: longText('New summary', 2000).optional(),
        notes: longText('New notes', 10_000).optional(),
        status: z.enum(STATUSES).optional().describe('New status'),
        tags: tagsArg.optional(),
        linked_creatives: creativesArg.optional(),
      })
      .strict(),
    z.strictObject({ angle: out.stored }),
    async (ctx, { id, ...changes }) => ({
      angle: present(await updateAudited(ctx, 'marketing-angles.update', KIND, id, {
        ...changes,
        ...(changes.linked_creatives ? await linkedChannels(ctx, changes.linked_creatives) : {}),
      }, 'Marketing angle')),
    }),
  ),
];
