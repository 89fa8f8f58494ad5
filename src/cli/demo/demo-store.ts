/**
 * The demo store as `npm start` seeds it into a new workspace: the demo shop's traffic, orders and
 * ads, its workflows run by the engine, every other family's objects (families.ts), what an
 * assistant would have stored through the tools (assistant.ts), the owner's links of its creators
 * to their codes (creators.ts) and a survey's answers (survey.ts).
 */
import type { EngineDeps } from '../../workflows/engine.ts';
import type { WorkflowsConfig } from '../../config.ts';
import type { Stores } from '../../store/index.ts';
import { updateSettings } from '../../store/app/workspaces.ts';
import { bumpDataVersions } from '../../store/app/data-versions.ts';
import { seedDemo } from './seed.ts';
import { seedDemoWorkflows } from './workflows.ts';
import { seedDemoFamilies } from './families.ts';
import { seedDemoAssistantWork } from './assistant.ts';
import { seedDemoSurveyAnswers } from './survey.ts';
import { seedDemoCreatorCodes } from './creators.ts';

export async function seedDemoStore(
  stores: Stores,
  workspaceId: number,
  options: { days: number; sessionsPerDay?: number; workflows: WorkflowsConfig; logger: EngineDeps['logger']; progress?: (line: string) => void },
): Promise<void> {
  // Orders without an exported processor fee are charged the usual card rate. The shop's leads and
  // sign-ups are no sales: its conversions, revenue and CPA count purchases, as its orders do.
  await updateSettings(stores.db, workspaceId, { payment_fee_percent: 2.9, payment_fee_fixed: 30, conversion_names: ['purchase'] });
  await seedDemo(stores.ch, { workspaceId, days: options.days, sessionsPerDay: options.sessionsPerDay, progress: options.progress });
  await bumpDataVersions(stores.db, [workspaceId]);
  const ran = await seedDemoWorkflows(stores, workspaceId, { config: options.workflows, logger: options.logger, nowMs: Date.now() });
  options.progress?.(`demo: ${ran} workflows enabled and run by the engine`);
  const now = Date.now();
  await seedDemoFamilies(stores, workspaceId, now);
  const surveyId = await seedDemoAssistantWork(stores, workspaceId, now);
  await seedDemoCreatorCodes(stores, workspaceId);
  await seedDemoSurveyAnswers(stores, workspaceId, surveyId, now);
}
