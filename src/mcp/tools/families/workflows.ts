import { z } from 'zod';
import { InvalidInput } from '../../../kit/errors.ts';
import { findObject } from '../../../store/app/tool-objects.ts';
import { EXECUTION_KIND, WORKFLOW_KIND } from '../../../store/app/workflows.ts';
import { workflowDefinition } from '../../../workflows/definition.ts';
import { readScopeOf } from '../../../analytics/permissions.ts';
import { createAudited, listPresented, present, requireObject, listTool } from '../kit/objects.ts';
import { idArg, limitArg, offsetArg, readTool, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const workflowTools = [
  listTool(
    'workflows.get-rules',
    'Get workflows',
    'Automation workflows (trigger, actions), enabled or not.',
    'Workflows drafted with workflows.create, enabled and disabled by a person (`workflow enable`, the dashboard).',
    WORKFLOW_KIND,
    'workflows',
  ),
  readTool(
    'workflows.get-executions',
    'Get workflow executions',
    'Runs of one workflow or of all, with status and outcome.',
    'Recorded by the workflow engine in the server, one per evaluation (schedules, thresholds, new conversions, ad fatigue, `workflow run`); ' +
      'a key reads only the runs whose numbers it may read (docs/workflows.md, "What a narrower key sees").',
    z.object({ workflow_id: idArg('workflow').optional(), limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ executions: out.storedList }),
    async (ctx, { workflow_id, ...page }) => {
      if (workflow_id) await requireObject(ctx, WORKFLOW_KIND, workflow_id, 'Workflow');
      return { executions: await listPresented(ctx, EXECUTION_KIND, page, workflow_id ? Number(workflow_id) : undefined) };
    },
  ),
  writeTool(
    'workflows.create',
    'Create a workflow',
    'Creates an automation workflow, disabled until a person enables it.',
    'Stored in the workspace, disabled.',
    workflowDefinition,
    z.strictObject({ workflow: out.stored }),
    async (ctx, input) => {
      for (const [i, action] of input.actions.entries()) {
        if (action.type === 'add_to_list' && !(await findObject(ctx.db, ctx.workspaceId, 'list', Number(action.target)))) {
          throw new InvalidInput(`actions.${i}.target: list ${action.target} not found`);
        }
      }
      // It will run with what this key reads (workflows/scope.ts).
      const scope = readScopeOf(ctx.visibility);
      return { workflow: present(await createAudited(ctx, 'workflows.create', WORKFLOW_KIND, { ...input, enabled: false }, { scope })) };
    },
  ),
];
