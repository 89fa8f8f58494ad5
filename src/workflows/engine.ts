/**
 * The workflow engine (docs/workflows.md): one job, evaluating the enabled workflows that are due.
 * Every evaluation is claimed in app state first (its workflow and due time, a unique key), so a
 * restart or a second process never evaluates a due time twice, then recorded as an execution
 * (with the scope its numbers were read with, scope.ts):
 * fired (its actions' outcomes), not fired, or failed (the check or an action failed; the message
 * only, never a stack).
 */
import crypto from 'node:crypto';
import type { WorkflowsConfig } from '../config.ts';
import { DAY_MS } from '../kit/calendar/days.ts';
import { Conflict } from '../kit/errors.ts';
import type { Stores } from '../store/index.ts';
import { readDataVersion } from '../store/app/data-versions.ts';
import { ensureWebhookSecret } from '../store/app/webhooks.ts';
import { findWorkspace } from '../store/app/workspaces.ts';
import {
  claimExecution,
  earlierExecutions,
  finishExecution,
  listEnabledWorkflows,
  pruneExecutions,
  requireWorkflow,
  type ActionOutcome,
  type Execution,
  type Workflow,
  type WorkflowAction,
} from '../store/app/workflows.ts';
import { dueOf } from './due.ts';
import { newestConversion } from '../analytics/queries/conversions/newest-conversion.ts';
import { checkTrigger, type ThresholdState } from './triggers.ts';
import { webhookBody, type Firing } from './firing.ts';
import { deliverWebhook } from './actions/webhook.ts';
import { createMailer } from './actions/email.ts';
import { addToList, saveNote } from './actions/records.ts';
import { runScope, outputScope } from './scope.ts';
import { visibilityWithin } from '../analytics/permissions.ts';

export interface EngineDeps {
  stores: Stores;
  config: WorkflowsConfig;
  logger: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** Waits between webhook tries; tests pass one that only counts. */
  sleep?: (ms: number) => Promise<void>;
}

export interface WorkflowEngine {
  /** Evaluates every enabled workflow whose due time at `nowMs` nobody has claimed yet; returns the executions it recorded. */
  evaluateDue(nowMs: number): Promise<Execution[]>;
  /** `workflow run`: evaluates one enabled workflow now (a schedule fires); a disabled one is refused. */
  runNow(workspaceId: number, workflowId: number, nowMs: number): Promise<Execution>;
  /** Starts the loop (every `checkMs`; none when 0). */
  start(): void;
  /** Stops the loop and waits for a pass in flight. */
  stop(): Promise<void>;
}

const WEBHOOK_TRIES = 3;
/** Executions every workflow keeps whatever their age (more than WATERMARK_LOOKBACK, below). */
const EXECUTIONS_KEPT = 100;
const PRUNE_EVERY_MS = 3_600_000;
/** How far back a new-conversion (threshold) evaluation looks for the previous one's newest conversion (state). */
const WATERMARK_LOOKBACK = 20;

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

export function createWorkflowEngine(deps: EngineDeps): WorkflowEngine {
  const { stores, config, logger } = deps;
  const { db } = stores;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  const mailer = createMailer(config.smtpUrl, config.smtpFrom);

  /** New conversions are counted after the newest one an earlier evaluation saw, else since the workflow was enabled. */
  async function conversionsAfter(workspaceId: number, workflow: Workflow, execution: Execution): Promise<number> {
    for (const earlier of await earlierExecutions(db, workspaceId, workflow.id, '', execution.id, WATERMARK_LOOKBACK)) {
      const through = earlier.data.outcome?.values.through;
      if (typeof through === 'string') return Date.parse(through);
    }
    return Date.parse(workflow.data.enabled_at ?? workflow.createdAt);
  }

  /** A threshold workflow's state: the values of its latest evaluation that got as far as the report. */
  async function previousThreshold(workspaceId: number, workflow: Workflow, execution: Execution): Promise<ThresholdState | null> {
    for (const earlier of await earlierExecutions(db, workspaceId, workflow.id, '', execution.id, WATERMARK_LOOKBACK)) {
      const values = earlier.data.outcome?.values;
      if (typeof values?.breached === 'boolean') return values as unknown as ThresholdState;
    }
    return null;
  }

  async function runAction(workspaceId: number, action: WorkflowAction, firing: Firing): Promise<ActionOutcome> {
    try {
      switch (action.type) {
        case 'notify_webhook': {
          const secret = await ensureWebhookSecret(db, stores.secrets, workspaceId);
          const result = await deliverWebhook(action.target, webhookBody(firing), secret, {
            timeoutMs: config.webhookTimeoutMs,
            tries: WEBHOOK_TRIES,
            retryMs: config.webhookRetryMs,
            allowPrivate: config.webhookAllowPrivate,
            sleep,
          });
          return { type: action.type, status: result.ok ? 'done' : 'failed', detail: result.detail };
        }
        case 'notify_email':
          return await mailer.send(action.target, firing);
        case 'add_to_list':
          return await addToList(db, workspaceId, action.target, firing);
        case 'save_note':
          return await saveNote(db, workspaceId, firing);
      }
    } catch (error) {
      return { type: action.type, status: 'failed', detail: errorMessage(error) };
    }
  }

  async function evaluate(workspaceId: number, workflow: Workflow, due: string, nowMs: number, reason: string): Promise<Execution | undefined> {
    const scope = outputScope(workflow);
    const execution = await claimExecution(db, workspaceId, workflow.id, due, new Date(nowMs), scope);
    if (!execution) return undefined;
    try {
      const workspace = await findWorkspace(db, workspaceId);
      if (!workspace) throw new Error(`Workspace ${workspaceId} not found`);
      const check = await checkTrigger({
        stores,
        workspaceId,
        timeZone: workspace.timezone,
        workflow: workflow.data,
        visibility: visibilityWithin(runScope(workflow)),
        nowMs,
        conversionsAfterMs: workflow.data.trigger.type === 'new_conversion' ? await conversionsAfter(workspaceId, workflow, execution) : nowMs,
        previousThreshold: workflow.data.trigger.type === 'metric_threshold' ? await previousThreshold(workspaceId, workflow, execution) : null,
        byHand: reason === 'manual',
      });
      if (!check.fired) return await finishExecution(db, workspaceId, execution, 'not_fired', { reason, values: check.values, actions: [] }, new Date());
      const firing: Firing = {
        workflow: { id: String(workflow.id), name: workflow.data.name },
        trigger: workflow.data.trigger,
        values: check.values,
        fired_at: new Date(nowMs).toISOString(),
        summary: check.summary,
        actor: `workflow:${workflow.id}`,
        scope,
      };
      const actions: ActionOutcome[] = [];
      for (const action of workflow.data.actions) actions.push(await runAction(workspaceId, action, firing));
      const status = actions.some((a) => a.status === 'failed') ? 'failed' : 'fired';
      return await finishExecution(db, workspaceId, execution, status, { reason, values: check.values, actions }, new Date());
    } catch (error) {
      logger.warn({ err: error, workflow: workflow.id }, 'workflow evaluation failed');
      return finishExecution(db, workspaceId, execution, 'failed', { reason, values: {}, actions: [], error: errorMessage(error) }, new Date());
    }
  }

  /** The data version each workspace had when its newest conversion was last looked up (this process). */
  const versionSeen = new Map<number, number>();

  /**
   * The newest sale conversion of a workspace, looked up only when its data version moved since
   * the last look (a flush, an import or a sync stored rows); undefined: nothing new to look at.
   */
  async function newestIfChanged(workspaceId: number, nowMs: number): Promise<number | null | undefined> {
    const version = await readDataVersion(db, workspaceId);
    if (versionSeen.get(workspaceId) === version) return undefined;
    versionSeen.set(workspaceId, version);
    return newestConversion(stores.ch, workspaceId, nowMs);
  }

  let prunedAtMs = -Infinity;

  /** At most once an hour: the executions of the enabled workflows past the retention (config.executionDays). */
  async function pruneOld(workflows: { workspaceId: number; workflow: Workflow }[], nowMs: number): Promise<void> {
    if (nowMs - prunedAtMs < PRUNE_EVERY_MS) return;
    prunedAtMs = nowMs;
    const before = new Date(nowMs - config.executionDays * DAY_MS);
    for (const { workspaceId, workflow } of workflows) await pruneExecutions(db, workspaceId, workflow.id, before, EXECUTIONS_KEPT);
  }

  async function evaluateDue(nowMs: number): Promise<Execution[]> {
    const recorded: Execution[] = [];
    const enabled = await listEnabledWorkflows(db);
    const places = new Map<number, { zone: string; newest?: number | null } | null>();
    for (const { workspaceId, workflow } of enabled) {
      if (!places.has(workspaceId)) {
        const workspace = await findWorkspace(db, workspaceId);
        places.set(workspaceId, workspace ? { zone: workspace.timezone } : null);
      }
      const place = places.get(workspaceId);
      if (!place) continue;
      let newest: number | null = null;
      if (workflow.data.trigger.type === 'new_conversion') {
        if (!('newest' in place)) place.newest = await newestIfChanged(workspaceId, nowMs);
        if (place.newest === undefined) continue;
        newest = place.newest;
      }
      const due = dueOf(workflow.data.trigger.type, nowMs, place.zone, newest);
      // Due times before the workflow was enabled are not its own.
      if (!due || due.atMs < Date.parse(workflow.data.enabled_at ?? workflow.createdAt)) continue;
      const execution = await evaluate(workspaceId, workflow, due.key, nowMs, 'due');
      if (execution) recorded.push(execution);
    }
    await pruneOld(enabled, nowMs);
    return recorded;
  }

  async function runNow(workspaceId: number, workflowId: number, nowMs: number): Promise<Execution> {
    const workflow = await requireWorkflow(db, workspaceId, workflowId);
    if (!workflow.data.enabled) throw new Conflict(`Workflow ${workflowId} is disabled: enable it first`);
    const key = `manual:${new Date(nowMs).toISOString()}:${crypto.randomUUID()}`;
    return (await evaluate(workspaceId, workflow, key, nowMs, 'manual'))!;
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const kick = () => {
    if (running) return;
    running = evaluateDue(Date.now())
      .then(() => undefined)
      .catch((error: unknown) => logger.error({ err: error }, 'workflow engine pass failed'))
      .finally(() => (running = null));
  };

  return {
    evaluateDue,
    runNow,
    start() {
      if (config.checkMs <= 0 || timer) return;
      timer = setInterval(kick, config.checkMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      mailer.close();
    },
  };
}
