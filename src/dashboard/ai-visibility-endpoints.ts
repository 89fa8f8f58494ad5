/**
 * The AI visibility view's endpoints (docs/dashboard.md, "AI visibility"): every member reads the
 * tracked prompts with their newest checks, as ai-visibility.get-results gives them, and whether
 * an assistant is configured; owners run the prompts now, as `ai-visibility run` does, one run
 * at a time per workspace.
 */
import type { FastifyInstance } from 'fastify';
import { Conflict } from '../kit/errors.ts';
import { NOT_CONFIGURED, PROMPT_KIND, runPrompts } from '../ai-visibility/run.ts';
import { promptsWithResults } from '../ai-visibility/results.ts';
import { countObjects } from '../store/app/tool-objects.ts';
import { requireOwner, workspaceAccess } from './access.ts';

/** Prompts the view lists: the oldest, as the tool pages them. */
const SHOWN_PROMPTS = 200;

export const RUN_UNDER_WAY = "This workspace's prompts are being run already: the view shows the checks once that run ends";

const shown = (object: { id: number; data: object; createdAt: string }) => ({ id: String(object.id), ...object.data, created_at: object.createdAt });

export async function aiVisibilityRoutes(app: FastifyInstance): Promise<void> {
  /** Workspaces whose prompts are being asked now: a second click waits for the first run instead of doubling the requests. */
  const running = new Set<number>();

  app.get('/dashboard/api/ai-visibility', async (request) => {
    const { workspaceId } = workspaceAccess(request);
    const [prompts, total] = await Promise.all([
      promptsWithResults(app.stores.db, workspaceId, { limit: SHOWN_PROMPTS, offset: 0 }),
      countObjects(app.stores.db, workspaceId, PROMPT_KIND),
    ]);
    return {
      ...(app.config.llm ? { status: 'configured' } : { status: 'not_configured', note: NOT_CONFIGURED }),
      running: running.has(workspaceId),
      total,
      prompts: prompts.map(({ prompt, results }) => ({ ...shown(prompt), results: results.map(shown) })),
    };
  });

  app.post('/dashboard/api/ai-visibility/run', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    const llm = app.config.llm;
    if (!llm) throw new Conflict(NOT_CONFIGURED);
    if (running.has(access.workspaceId)) throw new Conflict(RUN_UNDER_WAY);
    running.add(access.workspaceId);
    try {
      return { results: await runPrompts(app.stores.db, llm, access.workspaceId) };
    } finally {
      running.delete(access.workspaceId);
    }
  });
}
