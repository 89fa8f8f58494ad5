import { z } from 'zod';
import { listObjects } from '../../../store/app/tool-objects.ts';
import { createAudited, present } from '../kit/objects.ts';
import { limitArg, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const PROMPT = 'ai_visibility_prompt';
const RESULT = 'ai_visibility_result';

export const aiVisibilityTools = [
  readTool(
    'ai-visibility.get-results',
    'AI visibility results',
    'Tracked AI-assistant prompts with check results (assistant, brand mentioned, position, competitors), newest last.',
    'Prompts stored with ai-visibility.create-prompt.',
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ prompts: out.storedList }),
    async (ctx, page) => {
      const prompts = await listObjects(ctx.db, ctx.workspaceId, PROMPT, page);
      const results = [];
      for (const prompt of prompts) {
        const checks = await listObjects(ctx.db, ctx.workspaceId, RESULT, { parentId: prompt.id });
        results.push({ ...present(prompt), results: checks.map(present) });
      }
      return { prompts: results };
    },
  ),
  writeTool(
    'ai-visibility.create-prompt',
    'Track an AI prompt',
    'Tracks a shopper\'s question to AI assistants, with the brand and competitors to look for in answers.',
    'Stored in the workspace.',
    z
      .object({
        prompt: shortText('The question as a shopper would ask an AI assistant', 500),
        brand: z.string().trim().max(200).optional().describe('Default: the workspace name'),
        competitors: z.array(z.string().trim().min(1).max(200)).max(20).default([]).describe('Competitor brands to look for'),
      })
      .strict(),
    z.strictObject({ prompt: out.stored }),
    async (ctx, input) => ({ prompt: present(await createAudited(ctx, 'ai-visibility.create-prompt', PROMPT, { brand: '', ...input, active: true })) }),
  ),
];
