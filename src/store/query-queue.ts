import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who the analytics queries started inside `fn` run for (an API key, an OAuth connection). The
 * embedded engine runs one parameterised query at a time, so the queue below takes turns between
 * lanes: one key's ten reports wait behind each other, not in front of another key's page.
 */
const lanes = new AsyncLocalStorage<string>();

export function runInLane<T>(lane: string, fn: () => T): T {
  return lanes.run(lane, fn);
}

type Job = () => Promise<void>;

/**
 * Runs at most `concurrency` tasks at once. Urgent tasks (the collector's duplicate check, the
 * health probe: short queries others wait on) go first; the rest are served round-robin by lane,
 * in the order the lanes arrived. Tasks outside any lane share one lane of their own.
 */
export class FairQueue {
  private running = 0;
  private readonly urgent: Job[] = [];
  /** Lanes with waiting tasks; a Map keeps insertion order, so re-inserting a lane sends it to the back. */
  private readonly waiting = new Map<string, Job[]>();

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
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    const [lane, jobs] = first.value;
    const job = jobs.shift();
    this.waiting.delete(lane);
    if (jobs.length > 0) this.waiting.set(lane, jobs);
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
