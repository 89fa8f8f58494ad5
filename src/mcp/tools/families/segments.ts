import { z } from 'zod';
import { createAudited, present, updateAudited, listTool } from '../kit/objects.ts';
import { idArg, longText, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'segment';
const OPERATORS = ['equals', 'not_equals', 'contains', 'greater_than', 'less_than', 'in'] as const;

export const segmentRules = z
  .array(
    z
      .object({
        field: shortText('Customer or session field, e.g. country_code, orders_count, total_spent, adv_source', 100),
        operator: z.enum(OPERATORS).describe('Comparison'),
        value: z
          .union([z.string().max(500), z.number(), z.array(z.string().max(200)).max(100)])
          .describe('A list for the in operator'),
      })
      .strict(),
  )
  .max(50)
  .describe('All must match');

export const segmentTools = [
  listTool(
    'segments.get-segments',
    'Get segments',
    'The customer segments with their rules.',
    'Segments stored in the workspace.',
    KIND,
    'segments',
  ),
  writeTool(
    'segments.create',
    'Create a segment',
    'Creates a customer segment from rules; audience sync stays off (dashboard only).',
    'Stored in the workspace.',
    z
      .object({
        name: shortText('Name of the segment'),
        description: longText('What the segment is for', 2000).default(''),
        rules: segmentRules.min(1),
      })
      .strict(),
    z.strictObject({ segment: out.stored }),
    async (ctx, input) => ({ segment: present(await createAudited(ctx, 'segments.create', KIND, { ...input, audience_sync: false })) }),
  ),
  writeTool(
    'segments.update',
    'Update a segment',
    'Changes name, description and/or rules of a segment; not its audience sync.',
    'Stored in the workspace.',
    z
      .object({
        id: idArg('segment'),
        name: shortText('New name').optional(),
        description: longText('New description', 2000).optional(),
        rules: segmentRules.min(1).optional(),
      })
      .strict(),
    z.strictObject({ segment: out.stored }),
    async (ctx, { id, ...changes }) => ({ segment: present(await updateAudited(ctx, 'segments.update', KIND, id, changes, 'Segment')) }),
  ),
];
