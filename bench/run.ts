/**
 * Runs the benchmark suites listed in bench/suites/index.ts: `npm run bench [-- suite ...]`.
 * Suites on the shared data run first, on one seeded data dir (BENCH_EVENTS events, default
 * 20,000,000); suites with their own data dir run after it is closed (chDB opens one data dir per
 * process at a time).
 */
import { SUITES } from './suites/index.ts';
import { benchSizes, folded, openBenchEnv, partCounts } from './seed.ts';

const USAGE = `npm run bench [-- suite ...]   (no suite: every suite)
suites: ${SUITES.map((s) => s.name).join(', ')}
sizes and rounds (environment): BENCH_EVENTS, BENCH_WORKSPACES, BENCH_MERGED=0 (collector-like
parts), BENCH_SESSION_IDS=random (session ids unrelated to time, as the pixel made them before 2026-11), BENCH_ITERATIONS, BENCH_SECONDS,
BENCH_ROUNDS, BENCH_SETTLE_SECONDS; REDIS_URL adds
the dashboard's two processes sharing answers; docs/performance.md says what each suite measures
and what its baseline is.`;

const wanted = process.argv.slice(2);
if (wanted.some((arg) => arg === '--help' || arg === '-h')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = wanted.filter((name) => !SUITES.some((s) => s.name === name));
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const named = SUITES.filter((s) => !wanted.length || wanted.includes(s.name));
const included = new Set(named.flatMap((s) => ('includes' in s ? (s.includes ?? []) : [])));
const chosen = named.filter((s) => !included.has(s.name));
const log = (line: string) => console.log(line);
// Collector-inserted data changes as the engine merges it (migration 0011 forces merges of parts
// older than ten minutes): BENCH_SETTLE_SECONDS runs the shared-data suites a second time once
// the engine has folded `sessions` and `visitor_customers` into one part per partition, or after
// that many seconds, whichever comes first, on the same data dir.
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 0);

/** Waits as described above; returns how long it waited, in seconds. */
async function settle(ch: Parameters<typeof partCounts>[0], seconds: number): Promise<number> {
  const started = Date.now();
  for (let left = seconds; left > 0 && !(await folded(ch)); left -= 60) {
    console.log(`settling: ${left} s left; ${await partCounts(ch)}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(60, left) * 1000));
  }
  const waited = Math.round((Date.now() - started) / 1000);
  const state = (await folded(ch)) ? 'one part per partition' : 'time is up';
  console.log(`settled after ${waited} s (${state}); ${await partCounts(ch)}`);
  return waited;
}

const onEnv = chosen.filter((s) => s.kind === 'env');
if (onEnv.length) {
  const sizes = benchSizes();
  console.log(`seeding ${sizes.events} events, ${sizes.conversions} conversions, ${sizes.ads} ad rows (+5 % re-imported), ${sizes.workspaces} workspaces, ${sizes.merged ? 'merged' : 'unmerged'} ...`);
  const env = await openBenchEnv(sizes);
  // An interrupted run still removes its multi-gigabyte data dir.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      env.removeDataDir();
      process.exit(130);
    });
  }
  console.log(`seeded in ${env.seedSeconds.toFixed(1)} s; ${await partCounts(env.stores.ch)}`);
  const runSuites = async (label: string) => {
    for (const suite of onEnv) {
      console.log(`\n## ${suite.name}${label}`);
      if (suite.kind === 'env') await suite.run(env, log);
    }
  };
  try {
    await runSuites('');
    if (SETTLE_SECONDS > 0) {
      const waited = await settle(env.stores.ch, SETTLE_SECONDS);
      await runSuites(` (after ${waited} s of the engine's own merges)`);
    }
  } finally {
    await env.close();
  }
}
for (const suite of chosen) {
  if (suite.kind !== 'own') continue;
  console.log(`\n## ${suite.name}`);
  await suite.run(log);
}
