import { z } from 'zod';
import { SEGMENT_OPERATORS, ruleProblem, type SegmentRule } from '../../../analytics/segment-fields.ts';
import { countSegmentMembers } from '../../../analytics/queries/segments/segment-members.ts';
import { createAudited, listPresented, present, updateAudited } from '../kit/objects.ts';
import { idArg, limitArg, longText, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'segment';

export const segmentRules = z
  .array(
    z
      .object({
        field: shortText('One of metadata.list_schema segment_fields', 100),
        operator: z.enum(SEGMENT_OPERATORS).describe('Comparison'),
        value: z
          .union([z.string().max(500), z.number(), z.array(z.string().max(200)).max(100)])
          .describe('A list for the in operator'),
      })
      .strict()
      .superRefine((rule, ctx) => {
        const problem = ruleProblem(rule);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  )
  .max(50)
  .describe('All must match');

export const segmentTools = [
  readTool(
    'segments.get-segments',
    'Get segments',
    'Customer segments: rules, member_count (customers matching now; null without every channel).',
    'Segments stored in the workspace, evaluated over the sale orders and the sessions of the visitors tied to each customer.',
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ segments: out.storedList }),
    async (ctx, page) => {
      const segments = await listPresented(ctx, KIND, page);
      // Customers come from orders, which carry no channel: counting them needs every channel.
      const counts = ctx.visibility.channels === null
        ? await countSegmentMembers(ctx.ch, { workspaceId: ctx.workspaceId, nowMs: ctx.now(), segments: segments.map((s) => s.rules as SegmentRule[]) })
        : null;
      return { segments: segments.map((s, i) => ({ ...s, member_count: counts ? counts[i]! : null })) };
    },
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
