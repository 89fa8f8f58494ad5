/** Timing helpers shared by the suites. */
import fs from 'node:fs';

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface PairedTiming {
  apiMedianMs: number;
  apiP99Ms: number;
  engineMedianMs: number;
  engineP99Ms: number;
  /** API median over engine median. */
  ratio: number;
}

/**
 * Times `api` and its `engine` baseline alternately (so both see the same machine load), after
 * `warmup` untimed rounds. Returns medians, p99s and the answer of the last `api` call.
 */
export async function measurePaired<T>(
  api: () => Promise<T>,
  engine: () => Promise<unknown>,
  options: { iterations: number; warmup: number },
): Promise<{ timing: PairedTiming; last: T }> {
  const apiMs: number[] = [];
  const engineMs: number[] = [];
  let last!: T;
  for (let i = 0; i < options.warmup + options.iterations; i++) {
    let started = performance.now();
    last = await api();
    const a = performance.now() - started;
    started = performance.now();
    await engine();
    const e = performance.now() - started;
    if (i >= options.warmup) {
      apiMs.push(a);
      engineMs.push(e);
    }
  }
  apiMs.sort((x, y) => x - y);
  engineMs.sort((x, y) => x - y);
  return {
    last,
    timing: {
      apiMedianMs: round(quantile(apiMs, 0.5)),
      apiP99Ms: round(quantile(apiMs, 0.99)),
      engineMedianMs: round(quantile(engineMs, 0.5)),
      engineP99Ms: round(quantile(engineMs, 0.99)),
      ratio: round(quantile(apiMs, 0.5) / quantile(engineMs, 0.5), 2),
    },
  };
}

export interface Rate {
  /** Completed calls per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/** Calls per second and latency of `task` run by `callers` concurrent loops for `seconds`. */
export async function concurrentRate(task: () => Promise<unknown>, callers: number, seconds: number): Promise<Rate> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: callers }, async () => {
    while (performance.now() < until) {
      const t = performance.now();
      await task();
      latencies.push(performance.now() - t);
    }
  }));
  latencies.sort((a, b) => a - b);
  return {
    rps: round(latencies.length / ((performance.now() - started) / 1000)),
    p50Ms: round(quantile(latencies, 0.5)),
    p99Ms: round(quantile(latencies, 0.99)),
  };
}

/**
 * CPU time of this process's main thread (the server's event loop) in milliseconds, from
 * /proc (Linux; null elsewhere). Unlike wall time it hardly changes when other work shares the
 * machine, so CPU per request compares two servers fairly on a busy machine.
 */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat(5), counted from the state field (3).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** USER_HZ, 100 on every Linux kernel configuration in use. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface Timing {
  medianMs: number;
  p99Ms: number;
}

/**
 * Times every task in turn, round after round (so all see the same machine load), after `warmup`
 * untimed rounds: the paired measurement of measurePaired for more than two tasks.
 */
export async function measureInTurn<K extends string>(
  tasks: Record<K, () => Promise<unknown>>,
  options: { iterations: number; warmup: number },
): Promise<Record<K, Timing>> {
  const ms = Object.fromEntries(Object.keys(tasks).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < options.warmup + options.iterations; i++) {
    for (const [name, task] of Object.entries(tasks) as [K, () => Promise<unknown>][]) {
      const started = performance.now();
      await task();
      if (i >= options.warmup) ms[name].push(performance.now() - started);
    }
  }
  return Object.fromEntries((Object.entries(ms) as [K, number[]][]).map(([name, m]) => {
    m.sort((a, b) => a - b);
    return [name, { medianMs: round(quantile(m, 0.5)), p99Ms: round(quantile(m, 0.99)) }];
  })) as Record<K, Timing>;
}
