/**
 * A fixed number of sessions lent out one job at a time. A job that fails takes its session with
 * it: the session is closed and a new one opened in its place on the next demand, so a session
 * left in an unknown state (a query cut off half-way, settings half-applied) is never reused.
 */

export interface PooledSession {
  close(): void;
}

export interface SessionPool<S extends PooledSession> {
  use<T>(job: (session: S) => Promise<T>): Promise<T>;
  /** Sessions open now (idle or lent out). */
  readonly open: number;
  close(): Promise<void>;
}

interface Waiter<S> {
  resolve(session: S): void;
  reject(error: unknown): void;
}

export function createSessionPool<S extends PooledSession>(size: number, openSession: () => Promise<S>): SessionPool<S> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size must be a positive integer, not ${size}`);
  const idle: S[] = [];
  const waiters: Waiter<S>[] = [];
  let open = 0;
  let closed = false;

  async function openOne(): Promise<S> {
    open++;
    try {
      return await openSession();
    } catch (error) {
      open--;
      throw error;
    }
  }

  function acquire(): Promise<S> {
    if (closed) return Promise.reject(new Error('the session pool is closed'));
    const session = idle.pop();
    if (session) return Promise.resolve(session);
    if (open < size) return openOne();
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  function release(session: S): void {
    if (closed) return session.close();
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(session);
    else idle.push(session);
  }

  function discard(session: S): void {
    session.close();
    open--;
    const waiter = waiters.shift();
    if (waiter && !closed) openOne().then(waiter.resolve, waiter.reject);
  }

  return {
    get open() {
      return open;
    },
    async use(job) {
      const session = await acquire();
      let result;
      try {
        result = await job(session);
      } catch (error) {
        discard(session);
        throw error;
      }
      release(session);
      return result;
    },
    async close() {
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error('the session pool is closed'));
      for (const session of idle.splice(0)) session.close();
    },
  };
}
