import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who the analytics queries started inside `fn` run for (an API key, an OAuth connection). The
 * embedded engine runs a few queries at once (its sessions); the queue below decides who gets the
 * next free one: one key's ten reports wait behind each other, not in front of another key's page.
 */
const lanes = new AsyncLocalStorage<string>();

export function runInLane<T>(lane: string, fn: () => T): T {
  return lanes.run(lane, fn);
}

/** The lane the caller runs in ('' outside any). */
export function currentLane(): string {
  return lanes.getStore() ?? '';
}

type Job = ((threads: number) => Promise<void>) & { budgeted?: boolean };

/**
 * Runs at most `concurrency` tasks at once. Urgent tasks (the collector's duplicate check, the
 * health probe: short queries others wait on) go first; then the waiting lane served least
 * recently goes next, so a key arriving while another key's queries queue up is served after the
 * query now running, not after the other key's next one. Tasks outside any lane share one lane.
 *
 * Each lane's running tasks hold at most `laneThreads` engine threads together (the machine's
 * cores): a task is handed the threads it may use, its lane's free threads shared with the tasks
 * waiting behind it (at least one), and a lane without a free thread waits even while slots are
 * free. One key with many heavy reports thus keeps every core busy (one thread per query) but
 * never holds more than the cores, and another key's query starts at once, on threads of its own,
 * instead of sharing the cores with every running report of the first (docs/operations.md).
 * Urgent tasks are outside the budgets and get `laneThreads`; so are tasks run with
 * `budgeted: false` (exports: they hold a session for minutes, bounded by their own slots, and
 * would otherwise stall every other read of their lane), which still wait for their lane's turn.
 */
export class FairQueue {
  private running = 0;
  private readonly urgent: Job[] = [];
  private readonly waiting = new Map<string, Job[]>();
  /** Engine threads each lane's running tasks hold; a lane not in it holds none. */
  private readonly threads = new Map<string, number>();
  /** When each lane was last served (a counter); a lane not in it counts as never served. */
  private readonly served = new Map<string, number>();
  private tick = 0;

  constructor(
    private readonly concurrency: number,
    private readonly laneThreads = Number.MAX_SAFE_INTEGER,
  ) {}

  /** Runs `task` in its turn; `task` gets the number of engine threads it may use. */
  run<T>(task: (threads: number) => Promise<T>, urgent = false, budgeted = true): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = Object.assign((threads: number) => task(threads).then(resolve, reject), { budgeted });
      if (urgent) {
        this.urgent.push(job);
      } else {
        const lane = currentLane();
        const jobs = this.waiting.get(lane);
        if (jobs) jobs.push(job);
        else this.waiting.set(lane, [job]);
      }
      this.pump();
    });
  }

  private freeThreads(lane: string): number {
    return this.laneThreads - (this.threads.get(lane) ?? 0);
  }

  private next(): { job: Job; lane: string | null; threads: number } | undefined {
    if (this.urgent.length > 0) return { job: this.urgent.shift()!, lane: null, threads: this.laneThreads };
    let pick: string | undefined;
    for (const [lane, jobs] of this.waiting) {
      if (jobs[0]!.budgeted !== false && this.freeThreads(lane) <= 0) continue;
      if (pick === undefined || (this.served.get(lane) ?? -1) < (this.served.get(pick) ?? -1)) pick = lane;
    }
    if (pick === undefined) return undefined;
    const jobs = this.waiting.get(pick)!;
    const job = jobs.shift()!;
    const threads = job.budgeted === false ? this.laneThreads : Math.max(1, Math.floor(this.freeThreads(pick) / (jobs.length + 1)));
    if (jobs.length === 0) this.waiting.delete(pick);
    this.served.set(pick, ++this.tick);
    if (this.served.size > 10_000) {
      for (const lane of this.served.keys()) if (!this.waiting.has(lane)) this.served.delete(lane);
    }
    return { job, lane: job.budgeted === false ? null : pick, threads };
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const next = this.next();
      if (!next) return;
      const { job, lane, threads } = next;
      this.running++;
      if (lane !== null) this.threads.set(lane, (this.threads.get(lane) ?? 0) + threads);
      void job(threads).finally(() => {
        this.running--;
        if (lane !== null) {
          const left = (this.threads.get(lane) ?? threads) - threads;
          if (left > 0) this.threads.set(lane, left);
          else this.threads.delete(lane);
        }
        this.pump();
      });
    }
  }
}
