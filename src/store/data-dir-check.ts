import fs from 'node:fs';
import path from 'node:path';
import type { CheckResult, HealthCheck } from '../kit/health-check.ts';
import { PRIVATE_FILE } from './private-files.ts';

/** Below this much free space the data dir check reports `degraded` (docs/operations.md). */
const LOW_SPACE_BYTES = 256 * 1024 * 1024;

/**
 * `checks.data_dir` of `/healthz`: the data dir takes a small write (the collector's write-ahead
 * log, SQLite and try-on media all write there) and has room left. A full or read-only disk is
 * `degraded`, not `failing`: reads keep being answered while writes are refused.
 */
export function dataDirCheck(dir: string): HealthCheck {
  const probe = path.join(dir, '.health-probe');
  return {
    name: 'data_dir',
    async run(): Promise<CheckResult> {
      try {
        await fs.promises.writeFile(probe, 'ok', { mode: PRIVATE_FILE });
        await fs.promises.rm(probe, { force: true });
      } catch (error) {
        return { state: 'degraded', detail: `not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
      }
      const { bavail, bsize } = await fs.promises.statfs(dir);
      const free = bavail * bsize;
      if (free < LOW_SPACE_BYTES) return { state: 'degraded', detail: `low on space: ${Math.floor(free / 1024 / 1024)} MB free` };
      return { state: 'ok' };
    },
  };
}
