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

type Job = () => Promise<void>;

/**
 * Runs at most `concurrency` tasks at once. Urgent tasks (the collector's duplicate check, the
 * health probe: short queries others wait on) go first; then the waiting lane served least
 * recently goes next, so a key arriving while another key's queries queue up is served after the
 * query now running, not after the other key's next one. Tasks outside any lane share one lane.
 */
export class FairQueue {
  private running = 0;
  private readonly urgent: Job[] = [];
  private readonly waiting = new Map<string, Job[]>();
  /** When each lane was last served (a counter); a lane not in it counts as never served. */
  private readonly served = new Map<string, number>();
  private tick = 0;

  constructor(private readonly concurrency: number) {}

  run<T>(task: () => Promise<T>, urgent = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = () => task().then(resolve, reject);
      if (urgent) {
        this.urgent.push(job);
      } else {
        const lane = lanes.getStore() ?? '';
        const jobs = this.waiting.get(lane);
        if (jobs) jobs.push(job);
        else this.waiting.set(lane, [job]);
      }
      this.pump();
    });
  }

  private next(): Job | undefined {
    if (this.urgent.length > 0) return this.urgent.shift();
    let pick: string | undefined;
    for (const lane of this.waiting.keys()) {
      if (pick === undefined || (this.served.get(lane) ?? -1) < (this.served.get(pick) ?? -1)) pick = lane;
    }
    if (pick === undefined) return undefined;
    const jobs = this.waiting.get(pick)!;
    const job = jobs.shift();
    if (jobs.length === 0) this.waiting.delete(pick);
    this.served.set(pick, ++this.tick);
    if (this.served.size > 10_000) {
      for (const lane of this.served.keys()) if (!this.waiting.has(lane)) this.served.delete(lane);
    }
    return job;
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const job = this.next();
      if (!job) return;
      this.running++;
      void job().finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}
