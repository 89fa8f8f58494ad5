import { z } from 'zod';
import { createAudited, present } from '../kit/objects.ts';
import { limitArg, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';
import { NOT_CONFIGURED, PROMPT_KIND as PROMPT } from '../../../ai-visibility/run.ts';
import { promptsWithResults } from '../../../ai-visibility/results.ts';

export const aiVisibilityTools = [
  readTool(
    'ai-visibility.get-results',
    'AI visibility results',
    'Tracked AI-assistant prompts, each with its latest 20 checks (assistant, model, brand mentioned, position, competitors), newest last; status: is an assistant configured.',
    'Prompts from ai-visibility.create-prompt; results from `ai-visibility run` asking the configured OpenAI-compatible assistant.',
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ status: z.enum(['configured', 'not_configured']), note: z.string().optional(), prompts: out.storedList }),
    async (ctx, page) => {
      const results = (await promptsWithResults(ctx.db, ctx.workspaceId, page)).map(({ prompt, results: checks }) => ({ ...present(prompt), results: checks.map(present) }));
      return ctx.assistantConfigured ? { status: 'configured', prompts: results } : { status: 'not_configured', note: NOT_CONFIGURED, prompts: results };
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
