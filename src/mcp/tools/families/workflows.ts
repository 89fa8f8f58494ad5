import { z } from 'zod';
import { createAudited, listPresented, present, requireObject, listTool } from '../kit/objects.ts';
import { idArg, limitArg, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const TRIGGERS = ['daily_schedule', 'weekly_schedule', 'metric_threshold', 'new_conversion', 'ad_fatigue'] as const;
const ACTIONS = ['notify_email', 'notify_webhook', 'add_to_list', 'save_note'] as const;

export const workflowTools = [
  listTool(
    'workflows.get-rules',
    'Get workflows',
    'Automation workflows (trigger, conditions, actions), each enabled or not.',
    'Workflows created with workflows.create.',
    'workflow',
    'workflows',
  ),
  readTool(
    'workflows.get-executions',
    'Get workflow executions',
    'Recorded runs of one workflow or of all, with status and outcome.',
    'Workflow executions stored in the workspace.',
    z.object({ workflow_id: idArg('workflow').optional(), limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ executions: out.storedList }),
    async (ctx, { workflow_id, ...page }) => {
      if (workflow_id) await requireObject(ctx, 'workflow', workflow_id, 'Workflow');
      return { executions: await listPresented(ctx, 'workflow_execution', page, workflow_id ? Number(workflow_id) : undefined) };
    },
  ),
  writeTool(
    'workflows.create',
    'Create a workflow',
    'Creates an automation workflow, disabled until a person enables it in the dashboard.',
    'Stored in the workspace, disabled.',
    z
      .object({
        name: shortText('Name of the workflow'),
        trigger: z
          .object({
            type: z.enum(TRIGGERS).describe('When it runs'),
            metric: z.string().max(60).optional().describe('For metric_threshold, e.g. roas'),
            operator: z.enum(['above', 'below']).optional().describe('For metric_threshold'),
            value: z.number().optional().describe('For metric_threshold'),
          })
          .strict()
          .describe('What starts it'),
        actions: z
          .array(
            z
              .object({
                type: z.enum(ACTIONS).describe('What it does'),
                target: z.string().max(500).default('').describe('E-mail address, webhook URL or list id, by type'),
              })
              .strict(),
          )
          .min(1)
          .max(10)
          .describe('Run in order'),
      })
      .strict(),
    z.strictObject({ workflow: out.stored }),
    async (ctx, input) => ({ workflow: present(await createAudited(ctx, 'workflows.create', 'workflow', { ...input, enabled: false })) }),
  ),
];
