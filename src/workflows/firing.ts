import type { WorkflowTrigger } from '../store/app/workflows.ts';
import type { ReadScope } from '../store/app/tool-objects.ts';

/** What a workflow's actions are given when it fires; the webhook body is its first four fields. */
export interface Firing {
  workflow: { id: string; name: string };
  trigger: WorkflowTrigger;
  values: Record<string, unknown>;
  fired_at: string;
  /** One sentence saying why it fired, for e-mails, notes and list items. */
  summary: string;
  /** Who acts, for the audit log: `workflow:<id>`. */
  actor: string;
  /** What its numbers were read with: recorded on the notes and list rows it writes. */
  scope: ReadScope;
}

export function webhookBody(firing: Firing): string {
  return JSON.stringify({ workflow: firing.workflow, trigger: firing.trigger, values: firing.values, fired_at: firing.fired_at });
}
