import { LRUCache } from 'lru-cache';

/**
 * Answers kept by key in this process. Callers asking for a key whose answer is being computed
 * share that one computation; a computation that fails is not kept, so the next caller computes
 * afresh. Memory is bounded by `maxBytes` of kept answers (measured as their JSON text, UTF-16
 * bytes); the least recently used answers leave first. Every caller gets its own copy, so none can
 * change what another one reads. A cache of 0 bytes keeps and shares nothing.
 *
 * With `shared` (answers shared by every process, src/kit/shared-results.ts), an answer this
 * process does not keep is asked of it before it is computed, and kept here too.
 */
export interface ResultCache {
  get<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export function createResultCache(maxBytes: number, shared?: ResultCache): ResultCache {
  if (maxBytes <= 0) return { get: (_key, compute) => compute() };
  const kept = new LRUCache<string, { value: unknown }, () => Promise<unknown>>({
    maxSize: maxBytes,
    sizeCalculation: (entry, key) => 2 * (key.length + (JSON.stringify(entry.value)?.length ?? 0)) || 1,
    fetchMethod: async (key, _stale, { context }) => ({ value: await (shared ? shared.get(key, context) : context()) }),
    // A computation pushed out while it runs (the cache full of newer answers) still answers its callers.
    ignoreFetchAbort: true,
  });
  return {
    async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const entry = await kept.fetch(key, { context: compute });
      return structuredClone(entry!.value) as T;
    },
  };
}
