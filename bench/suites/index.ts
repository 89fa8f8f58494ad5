import type { BenchEnv } from '../seed.ts';
import { runDataApiBench } from './data-api.ts';
import { runCollectorBench } from './collector.ts';
import { runReportBench } from './report.ts';
import { runIsolationBench } from './isolation.ts';
import { runConcurrencyBench } from './concurrency.ts';
import { runGrowthBench } from './growth.ts';
import { runFinalPartsBench } from './final-parts.ts';
import { runOrderNamesBench } from './order-names.ts';
import { runDashboardBench } from './dashboard.ts';
import { runExportBench } from './export.ts';
import { runAttributionTruthBench } from './attribution-truth.ts';
import { runLiveBench } from './live.ts';
import { runCustomersBench } from './customers.ts';

/**
 * Every benchmark suite. A suite is one file in this folder plus one line here. `env` suites run on
 * the shared seeded data (bench/seed.ts); `own` suites set up their own data dir. A suite that
 * `includes` others runs them itself, so they do not run again beside it.
 */
export type BenchSuite =
  | { name: string; kind: 'env'; includes?: string[]; run(env: BenchEnv, log: (line: string) => void): Promise<unknown> }
  | { name: string; kind: 'own'; run(log: (line: string) => void): Promise<unknown> };

export const SUITES: BenchSuite[] = [
  { name: 'data-api', kind: 'env', run: runDataApiBench },
  { name: 'collector', kind: 'own', run: runCollectorBench },
  { name: 'report', kind: 'env', includes: ['final-parts'], run: runReportBench },
  { name: 'isolation', kind: 'env', run: runIsolationBench },
  { name: 'concurrency', kind: 'env', run: runConcurrencyBench },
  { name: 'final-parts', kind: 'env', run: runFinalPartsBench },
  { name: 'growth', kind: 'own', run: runGrowthBench },
  { name: 'order-names', kind: 'own', run: runOrderNamesBench },
  { name: 'dashboard', kind: 'env', run: runDashboardBench },
  { name: 'export', kind: 'own', run: runExportBench },
  { name: 'attribution-truth', kind: 'own', run: runAttributionTruthBench },
  { name: 'live', kind: 'own', run: runLiveBench },
  { name: 'customers', kind: 'env', run: runCustomersBench },
];
