/**
 * The tracked prompts with their newest check results, as ai-visibility.get-results and the
 * dashboard's AI visibility view show them.
 */
import type { AppDatabase } from '../store/app-db.ts';
import { countObjects, listObjects, type ToolObject } from '../store/app/tool-objects.ts';
import { PROMPT_KIND, RESULT_KIND } from './run.ts';

/** Check results shown per prompt: the newest, so a prompt run daily for years keeps a bounded answer. */
export const RESULTS_PER_PROMPT = 20;

export async function promptsWithResults(
  db: AppDatabase,
  workspaceId: number,
  page: { limit: number; offset: number },
): Promise<{ prompt: ToolObject; results: ToolObject[] }[]> {
  const prompts = await listObjects(db, workspaceId, PROMPT_KIND, page);
  const answer = [];
  for (const prompt of prompts) {
    const stored = await countObjects(db, workspaceId, RESULT_KIND, prompt.id);
    const offset = Math.max(0, stored - RESULTS_PER_PROMPT);
    answer.push({ prompt, results: await listObjects(db, workspaceId, RESULT_KIND, { parentId: prompt.id, offset, limit: RESULTS_PER_PROMPT }) });
  }
  return answer;
}
