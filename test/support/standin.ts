import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export interface ClickhouseStandin {
  /** Base URL of its HTTP interface, for `CLICKHOUSE_URL`. */
  url: string;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
  /** Kills it at once, as a crashed server would go. */
  kill(): void;
}

const SCRIPT = path.join(import.meta.dirname, 'clickhouse-standin.ts');

/** Starts the ClickHouse stand-in (test/support/clickhouse-standin.ts) in a process of its own. */
export async function startClickhouseStandin(): Promise<ClickhouseStandin> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-standin-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ClickHouse stand-in exited with ${code} before listening`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  const remove = () => fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      remove();
    },
    kill() {
      child.kill('SIGKILL');
    },
  };
}
