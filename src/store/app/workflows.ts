/**
 * Workflows and their executions in app state (docs/workflows.md). A tool drafts a workflow
 * (`workflows.create`, disabled); a person enables it (`workflow enable`, the dashboard); the engine
 * evaluates it. Each evaluation is an execution under its workflow, claimed before it runs by its
 * unique key (the workflow and the due time it answers): the database refuses a second claim of
 * the same key, so restarts and several processes never evaluate one due time twice.
 */
import { NotFound } from '../../kit/errors.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { findObject, listObjects, OBJECT_COLUMNS, pruneChildren, scopeColumn, toObject, type ReadScope, type ToolObject } from './tool-objects.ts';

export const WORKFLOW_KIND = 'workflow';
export const EXECUTION_KIND = 'workflow_execution';

export const TRIGGER_TYPES = ['daily_schedule', 'weekly_schedule', 'metric_threshold', 'new_conversion', 'ad_fatigue'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
/** The days a metric_threshold trigger reads (docs/workflows.md): the default is yesterday, the last complete day. */
export const THRESHOLD_PERIODS = ['yesterday', 'today', 'last_7_days'] as const;
export type ThresholdPeriod = (typeof THRESHOLD_PERIODS)[number];
export const ACTION_TYPES = ['notify_email', 'notify_webhook', 'add_to_list', 'save_note'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export interface WorkflowTrigger {
  type: TriggerType;
  metric?: string;
  operator?: 'above' | 'below';
  value?: number;
  /** metric_threshold only: the report for this source (and campaign id) over this period. */
  source?: string;
  campaign?: string;
  period?: ThresholdPeriod;
}

export interface WorkflowAction {
  type: ActionType;
  target: string;
}

export interface WorkflowData {
  name: string;
  trigger: WorkflowTrigger;
  actions: WorkflowAction[];
  enabled: boolean;
  /** When it was last enabled: new conversions are counted from then on. */
  enabled_at?: string;
}

export type Workflow = ToolObject<WorkflowData>;

export type ExecutionStatus = 'running' | 'fired' | 'not_fired' | 'failed';

export interface ActionOutcome {
  type: ActionType;
  status: 'done' | 'skipped' | 'failed';
  detail: string;
}

export interface ExecutionOutcome {
  /** `schedule`, `manual` or the trigger's own check. */
  reason: string;
  values: Record<string, unknown>;
  actions: ActionOutcome[];
  error?: string;
}

export interface ExecutionData {
  workflow_id: string;
  due: string;
  started_at: string;
  finished_at: string | null;
  status: ExecutionStatus;
  outcome: ExecutionOutcome | null;
}

export type Execution = ToolObject<ExecutionData>;

export function findWorkflow(db: AppDatabase, workspaceId: number, id: number): Promise<Workflow | undefined> {
  return findObject<WorkflowData>(db, workspaceId, WORKFLOW_KIND, id);
}

export async function requireWorkflow(db: AppDatabase, workspaceId: number, id: number): Promise<Workflow> {
  const workflow = await findWorkflow(db, workspaceId, id);
  if (!workflow) throw new NotFound(`Workflow ${id} not found`);
  return workflow;
}

export function listWorkflows(db: AppDatabase, workspaceId: number, page: { limit: number; offset: number }): Promise<Workflow[]> {
  return listObjects<WorkflowData>(db, workspaceId, WORKFLOW_KIND, page);
}

/** Every enabled workflow of every workspace, with its workspace: what the engine looks at. */
export async function listEnabledWorkflows(db: AppDatabase): Promise<{ workspaceId: number; workflow: Workflow }[]> {
  const rows = await db.selectFrom('tool_objects').select([...OBJECT_COLUMNS, 'workspace_id']).where('kind', '=', WORKFLOW_KIND).orderBy('id').execute();
  return rows
    .map((row) => ({ workspaceId: Number(row.workspace_id), workflow: toObject<WorkflowData>(row) }))
    .filter(({ workflow }) => workflow.data.enabled === true);
}

/** Turns a workflow on or off; the caller checked it (an enabled workflow must be complete). */
export async function setWorkflowEnabled(
  db: AppDatabase,
  workspaceId: number,
  workflow: Workflow,
  enabled: boolean,
  actor: string,
  now: Date,
): Promise<Workflow> {
  if (workflow.data.enabled === enabled) return workflow;
  const data: WorkflowData = { ...workflow.data, enabled, ...(enabled ? { enabled_at: now.toISOString() } : {}) };
  const updatedAt = now.toISOString();
  await db
    .updateTable('tool_objects')
    .set({ data: JSON.stringify(data), updated_at: updatedAt })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', workflow.id)
    .execute();
  await recordAudit(db, { workspaceId, actor, action: enabled ? 'workflow.enable' : 'workflow.disable', target: `${WORKFLOW_KIND}:${workflow.id}` });
  return { ...workflow, data, updatedAt };
}

/**
 * Claims the evaluation of `workflow` for `due` (a due time, or a unique name for a run by hand):
 * the new execution, recorded with the scope its numbers are read with, or undefined when another
 * evaluation holds that claim already. One statement on SQLite and PostgreSQL alike: the unique
 * key decides, whoever inserts first wins.
 */
export async function claimExecution(
  db: AppDatabase,
  workspaceId: number,
  workflowId: number,
  due: string,
  startedAt: Date,
  scope: ReadScope,
): Promise<Execution | undefined> {
  const data: ExecutionData = { workflow_id: String(workflowId), due, started_at: startedAt.toISOString(), finished_at: null, status: 'running', outcome: null };
  const at = startedAt.toISOString();
  const row = await db
    .insertInto('tool_objects')
    .values({
      workspace_id: workspaceId,
      kind: EXECUTION_KIND,
      parent_id: workflowId,
      unique_key: `${workflowId}:${due}`,
      data: JSON.stringify(data),
      read_scope: scopeColumn(scope),
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'kind', 'unique_key']).doNothing())
    .returning(OBJECT_COLUMNS)
    .executeTakeFirst();
  return row && toObject<ExecutionData>(row);
}

/** Records how a claimed evaluation ended. */
export async function finishExecution(
  db: AppDatabase,
  workspaceId: number,
  execution: Execution,
  status: Exclude<ExecutionStatus, 'running'>,
  outcome: ExecutionOutcome,
  finishedAt: Date,
): Promise<Execution> {
  const data: ExecutionData = { ...execution.data, status, outcome, finished_at: finishedAt.toISOString() };
  await db
    .updateTable('tool_objects')
    .set({ data: JSON.stringify(data), updated_at: finishedAt.toISOString() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', execution.id)
    .execute();
  return { ...execution, data, updatedAt: finishedAt.toISOString() };
}

/**
 * Deletes a workflow's executions started before `before`, except its newest `keep`: those hold
 * the watermark of the next new-conversion evaluation, and a due time that is past is never
 * claimed again, so an old claim can go. Returns how many went.
 */
export function pruneExecutions(db: AppDatabase, workspaceId: number, workflowId: number, before: Date, keep: number): Promise<number> {
  return pruneChildren(db, workspaceId, EXECUTION_KIND, workflowId, { keep, before });
}

/** The executions of a workflow before `beforeId` whose due key starts with `prefix`, newest first (at most `limit`). */
export async function earlierExecutions(
  db: AppDatabase,
  workspaceId: number,
  workflowId: number,
  prefix: string,
  beforeId: number,
  limit: number,
): Promise<Execution[]> {
  const rows = await db
    .selectFrom('tool_objects')
    .select(OBJECT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', EXECUTION_KIND)
    .where('parent_id', '=', workflowId)
    .where('unique_key', 'like', `${workflowId}:${prefix}%`)
    .where('id', '<', beforeId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => toObject<ExecutionData>(row));
}

export function listExecutions(db: AppDatabase, workspaceId: number, workflowId: number | undefined, page: { limit: number; offset: number }): Promise<Execution[]> {
  return listObjects<ExecutionData>(db, workspaceId, EXECUTION_KIND, { ...page, parentId: workflowId });
}

/** A workflow or an execution as every surface shows it (as the tools do): id as a string, its fields, its times. */
export function storedOut(object: Workflow | Execution): Record<string, unknown> {
  return { id: String(object.id), ...object.data, created_at: object.createdAt, updated_at: object.updatedAt };
}
