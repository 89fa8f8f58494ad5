/**
 * The demo store's workflows (docs/workflows.md): one of each kind a shop would start with, enabled
 * and run once by the engine at seeding time, so workflows.get-executions, the notes and the demo
 * list show what the engine did, produced the way a running server produces them.
 */
import type { WorkflowsConfig } from '../../config.ts';
import type { Stores } from '../../store/index.ts';
import { createObject } from '../../store/app/tool-objects.ts';
import { LIST_COLUMN_KIND, LIST_KIND } from '../../store/app/lists-and-notes.ts';
import { WORKFLOW_KIND, type WorkflowData } from '../../store/app/workflows.ts';
import { workflowDefinition } from '../../workflows/definition.ts';
import { createWorkflowEngine, type EngineDeps } from '../../workflows/engine.ts';
import { enableWorkflow } from '../../workflows/manage.ts';

const DAY_MS = 86_400_000;

/** Returns how many executions the engine recorded. */
export async function seedDemoWorkflows(
  stores: Stores,
  workspaceId: number,
  options: { config: WorkflowsConfig; logger: EngineDeps['logger']; nowMs: number },
): Promise<number> {
  const list = await createObject(stores.db, workspaceId, LIST_KIND, { name: 'Sales pings', kind: 'list', folder: '' });
  for (const name of ['fired_at', 'workflow', 'summary']) await createObject(stores.db, workspaceId, LIST_COLUMN_KIND, { name, type: 'text' }, { parentId: list.id });
  const definitions = [
    { name: 'Morning note', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] },
    { name: 'Spend above 500 yesterday', trigger: { type: 'metric_threshold', metric: 'spend', operator: 'above', value: 500 }, actions: [{ type: 'save_note' }] },
    { name: 'Meta ROAS below 2 yesterday', trigger: { type: 'metric_threshold', metric: 'roas', operator: 'below', value: 2, source: 'meta', period: 'yesterday' }, actions: [{ type: 'save_note' }] },
    { name: 'New sales to the list', trigger: { type: 'new_conversion' }, actions: [{ type: 'add_to_list', target: String(list.id) }] },
    { name: 'Tired creatives', trigger: { type: 'ad_fatigue' }, actions: [{ type: 'save_note' }] },
  ];
  const engine = createWorkflowEngine({ stores, config: options.config, logger: options.logger });
  try {
    for (const definition of definitions) {
      const data: WorkflowData = { ...workflowDefinition.parse(definition), enabled: false };
      const workflow = await createObject(stores.db, workspaceId, WORKFLOW_KIND, data);
      // Enabled a day back, so the new-conversion workflow finds the demo's last day of sales.
      await enableWorkflow(stores.db, workspaceId, workflow.id, 'demo', new Date(options.nowMs - DAY_MS));
      await engine.runNow(workspaceId, workflow.id, options.nowMs);
    }
  } finally {
    await engine.stop();
  }
  return definitions.length;
}
