/**
 * What a complete workflow is (docs/workflows.md, "Triggers" and "Actions"): each trigger type
 * names the fields it needs and refuses the ones it does not use; each action type its target.
 * One schema for the tool that creates workflows, and the same check before anything enables one
 * (the CLI, the dashboard), so a workflow stored before these rules cannot run half-defined.
 */
import { z } from 'zod';
import { InvalidInput } from '../kit/errors.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { METRIC_NAMES } from '../analytics/metrics.ts';
import { PIXEL_SOURCES } from '../analytics/sources.ts';
import { ACTION_TYPES, THRESHOLD_PERIODS, TRIGGER_TYPES, type WorkflowData } from '../store/app/workflows.ts';

/** Ad fatigue fires when an ad scores at least this (0 to 100) unless the trigger says otherwise. */
export const DEFAULT_FATIGUE_SCORE = 60;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const triggerShape = z
  .object({
    type: z.enum(TRIGGER_TYPES).describe('When it runs'),
    metric: z.string().max(60).optional().describe('Threshold metric, e.g. roas'),
    operator: z.enum(['above', 'below']).optional().describe('Threshold'),
    value: z.number().optional().describe('Threshold; ad_fatigue min score'),
    source: z.string().max(40).optional().describe('Threshold source'),
    campaign: z.string().trim().min(1).max(200).optional().describe('Campaign id'),
    period: z.enum(THRESHOLD_PERIODS).optional().describe('Threshold days'),
  })
  .strict();

const actionShape = z
  .object({
    type: z.enum(ACTION_TYPES).describe('What it does'),
    target: z.string().max(500).default('').describe('E-mail, webhook URL or list id'),
  })
  .strict();

type Trigger = z.output<typeof triggerShape>;
type Action = z.output<typeof actionShape>;
type Problem = { path: (string | number)[]; message: string };

function triggerProblems(trigger: Trigger): Problem[] {
  const problems: Problem[] = [];
  const refuse = (field: 'metric' | 'operator' | 'value' | 'source' | 'campaign' | 'period') => {
    if (trigger[field] !== undefined) problems.push({ path: [field], message: `a ${trigger.type} trigger takes no ${field}` });
  };
  if (trigger.type === 'metric_threshold') {
    if (trigger.metric === undefined) problems.push({ path: ['metric'], message: 'metric is required for a metric_threshold trigger' });
    else if (!(METRIC_NAMES as string[]).includes(trigger.metric)) {
      problems.push({ path: ['metric'], message: `unknown metric ${trigger.metric}; one of ${METRIC_NAMES.join(', ')}` });
    }
    if (trigger.operator === undefined) problems.push({ path: ['operator'], message: 'operator is required for a metric_threshold trigger' });
    if (trigger.value === undefined) problems.push({ path: ['value'], message: 'value is required for a metric_threshold trigger' });
    if (trigger.source !== undefined && !(PIXEL_SOURCES as readonly string[]).includes(trigger.source)) {
      problems.push({ path: ['source'], message: `unknown source ${trigger.source}; one of ${PIXEL_SOURCES.join(', ')}` });
    }
  } else if (trigger.type === 'ad_fatigue') {
    for (const field of ['metric', 'operator', 'source', 'campaign', 'period'] as const) refuse(field);
    if (trigger.value !== undefined && (trigger.value < 0 || trigger.value > 100)) {
      problems.push({ path: ['value'], message: 'an ad_fatigue score is from 0 to 100' });
    }
  } else {
    for (const field of ['metric', 'operator', 'value', 'source', 'campaign', 'period'] as const) refuse(field);
  }
  return problems;
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

function actionProblem(action: Action): string | null {
  switch (action.type) {
    case 'notify_webhook':
      return isWebUrl(action.target) ? null : 'a notify_webhook target is an http(s) URL';
    case 'notify_email':
      return EMAIL.test(action.target) ? null : 'a notify_email target is an e-mail address';
    case 'add_to_list':
      return /^\d{1,15}$/.test(action.target) ? null : 'an add_to_list target is a list id';
    case 'save_note':
      return action.target === '' ? null : 'a save_note action takes no target';
  }
}

export const workflowDefinition = z
  .object({
    name: z.string().trim().min(1).max(200).describe('Name of the workflow'),
    trigger: triggerShape.describe('What starts it'),
    actions: z.array(actionShape).min(1).max(10).describe('Run in order'),
  })
  .strict()
  .superRefine((workflow, ctx) => {
    for (const problem of triggerProblems(workflow.trigger)) ctx.addIssue({ code: 'custom', path: ['trigger', ...problem.path], message: problem.message });
    workflow.actions.forEach((action, i) => {
      const message = actionProblem(action);
      if (message) ctx.addIssue({ code: 'custom', path: ['actions', i, 'target'], message });
    });
  });

export type WorkflowDefinition = z.output<typeof workflowDefinition>;

/** Refuses to enable a stored workflow that is not complete, naming the first field at fault. */
export function checkRunnable(data: WorkflowData): void {
  const parsed = workflowDefinition.safeParse({ name: data.name, trigger: data.trigger, actions: data.actions });
  if (!parsed.success) throw new InvalidInput(`Workflow is incomplete: ${describeIssues(parsed.error, { first: true })}`);
}
