import { z } from 'zod';
import { createAudited, present, updateAudited, listTool } from '../kit/objects.ts';
import { idArg, longText, shortText, tagsArg, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'marketing_angle';
const STATUSES = ['idea', 'testing', 'winning', 'paused', 'retired'] as const;
const creativesArg = z.array(z.string().trim().min(1).max(200)).max(100).describe('Ad ids of creatives');

export const marketingAngleTools = [
  listTool(
    'marketing-angles.get-angles',
    'Get marketing angles',
    'Marketing angles (messaging hypotheses) with status, tags and linked creatives.',
    'Angles stored in the workspace.',
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
    async (ctx, input) => ({ angle: present(await createAudited(ctx, 'marketing-angles.create', KIND, { ...input, status: 'idea' })) }),
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
      angle: present(await updateAudited(ctx, 'marketing-angles.update', KIND, id, changes, 'Marketing angle')),
    }),
  ),
];
