import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE, privateDir } from '../store/private-files.ts';

/**
 * While the server runs it owns the embedded stores; it leaves its port and a secret admin token
 * in the data dir so that the CLI can send commands through it instead.
 */
export interface ServerInfo {
  pid: number;
  port: number;
}

const infoPath = (dataDir: string) => path.join(dataDir, 'server.json');
const tokenPath = (dataDir: string) => path.join(dataDir, 'admin-token');

export function adminToken(dataDir: string): string {
  const file = tokenPath(dataDir);
  if (!fs.existsSync(file)) {
    privateDir(dataDir);
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: PRIVATE_FILE, flag: 'wx' });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  fs.writeFileSync(infoPath(dataDir), JSON.stringify(info), { mode: PRIVATE_FILE });
}

export function removeServerInfo(dataDir: string): void {
  fs.rmSync(infoPath(dataDir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running server on this data dir, if any (a stale file from a crash is ignored). */
export function runningServer(dataDir: string): ServerInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(infoPath(dataDir), 'utf8')) as ServerInfo;
    return alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}
