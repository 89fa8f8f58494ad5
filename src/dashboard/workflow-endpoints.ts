/**
 * The workflows view's endpoints (docs/dashboard.md, "Workflows"): every member reads the
 * workflows and the latest executions whose numbers it may read; owners enable, disable and run
 * them, as `workflow enable|disable|run` do on the command line.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EXECUTION_KIND, listExecutions, listWorkflows, requireWorkflow, storedOut, type Execution } from '../store/app/workflows.ts';
import { countObjects, MAX_OBJECTS_PER_KIND } from '../store/app/tool-objects.ts';
import { mayHide, visibleObject } from '../analytics/stored-channels.ts';
import type { Visibility } from '../analytics/permissions.ts';
import { createWorkflowEngine } from '../workflows/engine.ts';
import { disableWorkflow, enableWorkflow } from '../workflows/manage.ts';
import { pathId, type IdRequest } from './path-id.ts';
import { requireOwner, workspaceAccess } from './access.ts';

/** Executions shown per workflow: the newest ones. */
const SHOWN_EXECUTIONS = 50;

const idOf = (request: IdRequest) => pathId(request, 'Workflow');

const actor = (request: FastifyRequest) => `dashboard:${request.dashboardUser!.email}`;

export async function workflowRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.stores;

  /**
   * The newest executions of a workflow the member may read, oldest first, and how many it may
   * read. One who may read them all is shown a page; the others the newest of what they may read
   * (a workflow keeps a bounded number of executions).
   */
  async function readableExecutions(workspaceId: number, workflowId: number, visibility: Visibility): Promise<{ newest: Execution[]; total: number }> {
    if (!mayHide(visibility, EXECUTION_KIND)) {
      const total = await countObjects(db, workspaceId, EXECUTION_KIND, workflowId);
      return { newest: await listExecutions(db, workspaceId, workflowId, { limit: SHOWN_EXECUTIONS, offset: Math.max(0, total - SHOWN_EXECUTIONS) }), total };
    }
    const all = await listExecutions(db, workspaceId, workflowId, { limit: MAX_OBJECTS_PER_KIND, offset: 0 });
    const readable = all.filter((execution) => visibleObject(visibility, EXECUTION_KIND, execution));
    return { newest: readable.slice(-SHOWN_EXECUTIONS), total: readable.length };
  }

  app.get('/dashboard/api/workflows', async (request) => {
    const { workspaceId } = workspaceAccess(request);
    return { workflows: (await listWorkflows(app.stores.db, workspaceId, { limit: MAX_OBJECTS_PER_KIND, offset: 0 })).map(storedOut) };
  });

  app.get<{ Params: { id: string } }>('/dashboard/api/workflows/:id/executions', async (request) => {
    const { workspaceId, visibility } = workspaceAccess(request);
    const workflow = await requireWorkflow(app.stores.db, workspaceId, idOf(request));
    const { newest, total } = await readableExecutions(workspaceId, workflow.id, visibility);
    return { workflow: storedOut(workflow), executions: newest.reverse().map(storedOut), total };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/workflows/:id/enable', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    return { workflow: storedOut(await enableWorkflow(app.stores.db, access.workspaceId, idOf(request), actor(request), new Date())) };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/workflows/:id/disable', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    return { workflow: storedOut(await disableWorkflow(app.stores.db, access.workspaceId, idOf(request), actor(request), new Date())) };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/workflows/:id/run', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    const engine = createWorkflowEngine({ stores: app.stores, config: app.config.workflows, logger: request.log });
    try {
      return { execution: storedOut(await engine.runNow(access.workspaceId, idOf(request), Date.now())) };
    } finally {
      await engine.stop();
    }
  });
}
