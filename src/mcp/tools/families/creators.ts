import crypto from 'node:crypto';
import { z } from 'zod';
import { uniqueKeysTaken } from '../../../store/app/tool-objects.ts';
import { Conflict } from '../../../kit/errors.ts';
import { creatorRevenueBasis, creatorsInTraffic } from '../../../analytics/creators.ts';
import { CREATOR_KIND as CREATOR } from '../../../store/app/creators.ts';
import { commissionRule as commission, CREATOR_PROGRAM_KIND as PROGRAM } from '../../../store/app/creator-programs.ts';
import { createAudited, present, requireObject, updateAudited, listTool } from '../kit/objects.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { idArg, longText, rangeArgs, readTool, shortText, writeTool, type ToolContext } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const handle = (network: string) =>
  z.string().trim().regex(/^@?[A-Za-z0-9._-]{1,60}$/, { error: `${network} handle must be 1 to 60 letters, digits, dots, dashes or underscores` })
    .describe(`${network} handle`);

/** 4-digit codes, unique per workspace; the unique index settles a race between two calls. */
async function newTrackingCode(ctx: ToolContext): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidates = Array.from({ length: 8 }, () => String(crypto.randomInt(1000, 10_000)));
    const taken = await uniqueKeysTaken(ctx.db, ctx.workspaceId, CREATOR, candidates);
    const free = candidates.find((c) => !taken.has(c));
    if (free) return free;
  }
  throw new Conflict('No free 4-digit tracking code is left in this workspace');
}

async function createCreator(ctx: ToolContext, data: Record<string, unknown>) {
  for (let attempt = 0; ; attempt++) {
    const tracking_code = await newTrackingCode(ctx);
    try {
      return await createAudited(ctx, 'creators.create', CREATOR, { ...data, tracking_code }, { uniqueKey: tracking_code });
    } catch (error) {
      if (attempt >= 3 || !/unique/i.test(String((error as Error).message))) throw error;
    }
  }
}

export const creatorTools = [
  readTool(
    'creators.get-creators',
    'Get creators',
    'Creators by ref code and coupon (code[+digits]; coupon wins), stored with linked codes: sessions, orders, revenue, commission.',
    "Sessions' `ref` landing parameter and the coupon codes of sale conversions and orders, from traffic and orders; creators stored with creators.create, codes linked by a person (`creator link-code`, the dashboard); commission once a person applies their program (`creator-program apply`, the dashboard); the report core for report_revenue.",
    z.object(rangeArgs).strict(),
    z.strictObject({
      ...out.range,
      creators: out.list({
        code: out.str, codes: out.strs, creator: out.stored.nullable(), sessions: out.num, orders: out.num, revenue: out.num, commission: out.numOrNull, coupon_codes: out.strs,
      }),
      revenue_basis: out.fields({ revenue: out.num, report_revenue: out.num, attribution: out.open, reason: out.str }),
    }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const creators = await creatorsInTraffic(ctx, ctx, range);
      return {
        ...rangeOut(range),
        creators: creators.map((row) => ({ ...row, creator: row.creator ? present(row.creator) : null })),
        revenue_basis: await creatorRevenueBasis(ctx, ctx, range, creators, ctx.now()),
      };
    },
  ),
  listTool(
    'creators.get-programs',
    'Get creator programs',
    'Creator commission programs (percentage, fixed or tiered).',
    'Creator programs stored with creators.create-program; `applied` set by a person (`creator-program apply`, the dashboard).',
    PROGRAM,
    'programs',
  ),
  writeTool(
    'creators.create-program',
    'Create a creator program',
    'Creates a commission template (percentage, fixed or tiered), inert until a person applies it (CLI or dashboard).',
    'Stored in the workspace.',
    z.object({ name: shortText('Name of the program'), commission }).strict(),
    z.strictObject({ program: out.stored }),
    async (ctx, input) => ({ program: present(await createAudited(ctx, 'creators.create-program', PROGRAM, { ...input, applied: false, applied_at: null })) }),
  ),
  writeTool(
    'creators.create',
    'Add a creator',
    'Adds a creator, optionally in a program, with a new unique 4-digit tracking code.',
    'Stored in the workspace.',
    z
      .object({
        name: shortText('Name of the creator'),
        program_id: idArg('creator program').optional(),
        instagram_handle: handle('Instagram').optional(),
        tiktok_handle: handle('TikTok').optional(),
        youtube_handle: handle('YouTube').optional(),
        notes: longText('Free notes', 10_000).optional(),
      })
      .strict(),
    z.strictObject({ creator: out.stored }),
    async (ctx, input) => {
      if (input.program_id) await requireObject(ctx, PROGRAM, input.program_id, 'Creator program');
      const creator = await createCreator(ctx, {
        name: input.name,
        program_id: input.program_id ?? '',
        instagram_handle: input.instagram_handle ?? '',
        tiktok_handle: input.tiktok_handle ?? '',
        youtube_handle: input.youtube_handle ?? '',
        notes: input.notes ?? '',
        active: true,
      });
      return { creator: present(creator) };
    },
  ),
  writeTool(
    'creators.update',
    'Update a creator',
    'Changes name, notes, active flag and/or handles of a creator; not commission, program or promo codes.',
    'Stored in the workspace.',
    z
      .object({
        id: idArg('creator'),
        name: shortText('New name').optional(),
        notes: longText('New notes', 10_000).optional(),
        active: z.boolean().optional().describe('Whether the creator is active'),
        instagram_handle: handle('Instagram').optional(),
        tiktok_handle: handle('TikTok').optional(),
        youtube_handle: handle('YouTube').optional(),
      })
      .strict(),
    z.strictObject({ creator: out.stored }),
    async (ctx, { id, ...changes }) => ({ creator: present(await updateAudited(ctx, 'creators.update', CREATOR, id, changes, 'Creator')) }),
  ),
];
