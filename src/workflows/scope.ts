/**
 * What a workflow reads and what its outputs hold (docs/workflows.md, "What a narrower key
 * sees"). A workflow runs with the channels of the key that drafted it (workflows.create records
 * them); a person enables it, and the people who may (owners, the CLI) see every channel, so
 * enabling neither widens nor narrows it. A workflow stored before scopes were recorded, or
 * stored by a person, reads the whole store.
 */
import { METRICS, type MetricName } from '../analytics/metrics.ts';
import { WHOLE_STORE, type ReadScope } from '../analytics/permissions.ts';
import type { Workflow } from '../store/app/workflows.ts';

export const runScope = (workflow: Workflow): ReadScope => workflow.scope ?? WHOLE_STORE;

/**
 * The scope recorded on its executions, notes and list rows: the channels it runs with, and a
 * profit figure only when its trigger compares a profit metric.
 */
export function outputScope(workflow: Workflow): ReadScope {
  const { trigger } = workflow.data;
  const profit = trigger.type === 'metric_threshold' && METRICS[trigger.metric as MetricName]?.profit === true;
  return { channels: runScope(workflow).channels, profit };
}
