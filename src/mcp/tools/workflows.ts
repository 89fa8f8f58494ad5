import { z } from 'zod';
import { createAudited, listPresented, present, requireObject, listTool } from './objects.ts';
import { idArg, limitArg, offsetArg, readTool, shortText, writeTool } from './types.ts';

const TRIGGERS = ['daily_schedule', 'weekly_schedule', 'metric_threshold', 'new_conversion', 'ad_fatigue'] as const;
const ACTIONS = ['notify_email', 'notify_webhook', 'add_to_list', 'save_note'] as const;

export const workflowTools = [
  listTool(
    'workflows.get-rules',
    'Get workflows',
    'Lists the automation workflows (trigger, conditions, actions) and whether each is enabled.',
    'workflow',
    'workflows',
  ),
  readTool(
    'workflows.get-executions',
    'Get workflow executions',
    'Lists the recorded runs of a workflow (or of all workflows) with status and outcome, oldest first.',
    z.object({ workflow_id: idArg('workflow').optional(), limit: limitArg, offset: offsetArg }).strict(),
    async (ctx, { workflow_id, ...page }) => {
      if (workflow_id) await requireObject(ctx, 'workflow', workflow_id, 'Workflow');
      return { executions: await listPresented(ctx, 'workflow_execution', page, workflow_id ? Number(workflow_id) : undefined) };
    },
  ),
  writeTool(
    'workflows.create',
    'Create a workflow',
    'Creates an automation workflow. It is always created disabled; a person reviews and enables it in the dashboard.',
    z
      .object({
        name: shortText('Name of the workflow'),
        trigger: z
          .object({
            type: z.enum(TRIGGERS).describe('When it runs'),
            metric: z.string().max(60).optional().describe('Metric watched by metric_threshold, e.g. roas'),
            operator: z.enum(['above', 'below']).optional().describe('Direction for metric_threshold'),
            value: z.number().optional().describe('Threshold for metric_threshold'),
          })
          .strict()
          .describe('The trigger'),
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
          .describe('Actions run in order'),
      })
      .strict(),
    async (ctx, input) => ({ workflow: present(await createAudited(ctx, 'workflows.create', 'workflow', { ...input, enabled: false })) }),
  ),
];
