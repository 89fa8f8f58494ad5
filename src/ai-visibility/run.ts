/**
 * Runs a workspace's tracked AI-visibility prompts (docs/families.md, "AI visibility"): each active
 * prompt is asked once of the configured assistant, and the answer becomes a check result stored
 * under the prompt: the model that answered, whether the brand is named, its place among the
 * tracked brands named, and the competitors named. A failed request is stored as a failed check.
 */
import type { LlmConfig } from '../config.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { createObject, listObjects, pruneChildren } from '../store/app/tool-objects.ts';
import { findWorkspace } from '../store/app/workspaces.ts';
import { askChat } from './chat.ts';
import { findMentions } from './mentions.ts';

export const PROMPT_KIND = 'ai_visibility_prompt';
export const RESULT_KIND = 'ai_visibility_result';
/** Check results kept per prompt; older ones are deleted as new ones arrive (the tool shows the newest 20). */
export const RESULTS_KEPT = 100;

/** What get-results says when nothing can run the prompts. */
export const NOT_CONFIGURED = 'No assistant is configured (STORELENS_LLM_URL), so tracked prompts are never run and have no results.';

interface StoredPrompt {
  prompt: string;
  brand: string;
  competitors: string[];
  active: boolean;
}

export interface CheckResult {
  prompt_id: string;
  assistant: string;
  model: string;
  status: 'ok' | 'failed';
  brand_mentioned: boolean | null;
  position: number | null;
  competitors_mentioned: string[];
  error?: string;
}

export async function runPrompts(db: AppDatabase, config: LlmConfig, workspaceId: number): Promise<CheckResult[]> {
  const workspaceName = (await findWorkspace(db, workspaceId))?.name ?? '';
  const assistant = new URL(config.url).host;
  const checks: CheckResult[] = [];
  for (const prompt of await listObjects<StoredPrompt>(db, workspaceId, PROMPT_KIND)) {
    if (!prompt.data.active) continue;
    const brand = prompt.data.brand || workspaceName;
    const answer = await askChat(config, prompt.data.prompt);
    const { prompt_id: _id, ...check }: CheckResult = answer.ok
      ? { prompt_id: String(prompt.id), assistant, model: answer.model, status: 'ok', ...findMentions(answer.content, brand, prompt.data.competitors) }
      : { prompt_id: String(prompt.id), assistant, model: config.model, status: 'failed', brand_mentioned: null, position: null, competitors_mentioned: [], error: answer.error };
    await createObject(db, workspaceId, RESULT_KIND, check, { parentId: prompt.id });
    await pruneChildren(db, workspaceId, RESULT_KIND, prompt.id, { keep: RESULTS_KEPT });
    checks.push({ prompt_id: String(prompt.id), ...check });
  }
  return checks;
}
