import { z } from 'zod';
import { countObjects, uniqueKeysTaken } from '../../../store/app/tool-objects.ts';
import { checkRoomFor, createAudited, listTool } from '../kit/objects.ts';
import { writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'topic';
/** Keywords per topics.add call (service-spec.md, Limits). */
export const MAX_KEYWORDS_PER_CALL = 20;

export const topicTools = [
  listTool(
    'topics.get-topics',
    'Get tracked topics',
    'Keywords tracked for content and AI-visibility monitoring.',
    'Keywords stored with topics.add.',
    KIND,
    'topics',
  ),
  writeTool(
    'topics.add',
    'Track keywords',
    'Tracks keywords; those already tracked (in any case) are skipped and listed.',
    'Stored in the workspace.',
    z
      .object({
        keywords: z
          .array(z.string().trim().min(1).max(100))
          .min(1)
          .max(MAX_KEYWORDS_PER_CALL, { error: `At most ${MAX_KEYWORDS_PER_CALL} keywords per call` })
          .describe('Keywords to track'),
      })
      .strict(),
    z.strictObject({ topics: out.storedList, skipped: out.strs, total_tracked: out.num }),
    async (ctx, { keywords }) => {
      // One topic per keyword regardless of case; the first spelling given is kept.
      const byKey = new Map<string, string>();
      for (const keyword of keywords) if (!byKey.has(keyword.toLowerCase())) byKey.set(keyword.toLowerCase(), keyword);
      const taken = await uniqueKeysTaken(ctx.db, ctx.workspaceId, KIND, [...byKey.keys()]);
      // All or nothing: a call that would fill the workspace past its bound adds no keyword.
      await checkRoomFor(ctx, KIND, byKey.size - taken.size);
      const topics = [];
      for (const [key, keyword] of byKey) {
        if (taken.has(key)) continue;
        const topic = await createAudited(ctx, 'topics.add', KIND, { keyword }, { uniqueKey: key });
        topics.push({ id: String(topic.id), keyword, created_at: topic.createdAt });
      }
      const skipped = [...byKey].filter(([key]) => taken.has(key)).map(([, k]) => k);
      return { topics, skipped, total_tracked: await countObjects(ctx.db, ctx.workspaceId, KIND) };
    },
  ),
];
