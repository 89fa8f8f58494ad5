import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../store/index.ts';
import { adminToken } from './runtime-files.ts';
import { SETTINGS_BODY_LIMIT } from '../store/app/settings.ts';

/**
 * Runs one CLI command line with the server's stores and answers its outcome. The CLI hands it
 * in when it builds the app: the commands are the CLI's, the server only carries them.
 */
export type CommandRunner = (
  ctx: {
    config: Config;
    stores: Stores;
    logger: Logger;
    progress(message: string, bar?: { done: number; total: number }): void;
    signal?: AbortSignal;
  },
  argv: string[],
) => Promise<unknown>;

function tokenMatches(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Whether the request comes from this machine: the socket's peer is a loopback address (never
 * `request.ip`, which a client can set through X-Forwarded-For behind STORELENS_TRUST_PROXY), and
 * no proxy handed it on: a reverse proxy on the same machine connects from loopback too, for
 * clients anywhere.
 */
function fromThisMachine(request: FastifyRequest): boolean {
  let peer = request.raw.socket.remoteAddress ?? '';
  if (peer.startsWith('::ffff:')) peer = peer.slice(7);
  const loopback = peer === '::1' || (net.isIPv4(peer) && peer.startsWith('127.'));
  return loopback && FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}

/**
 * `POST /admin/cli`: runs a CLI command inside the server (which owns the embedded stores).
 * The answer is NDJSON: progress lines (`{progress, bar?}`), then one `{result}` or `{error}` line. Only clients on
 * this machine reach it (404 for others) unless STORELENS_ADMIN_REMOTE=1.
 */
export const adminRoute: FastifyPluginAsync<{ runCommand: CommandRunner }> = async (app, { runCommand }) => {
  const expected = adminToken(app.config.dataDir);
  // The largest argument a command takes is a settings list (`settings set NAME=-`).
  app.post<{ Body: { argv?: unknown } }>('/admin/cli', { bodyLimit: SETTINGS_BODY_LIMIT }, async (request, reply) => {
    if (!app.config.adminRemote && !fromThisMachine(request)) return reply.code(404).send({ message: 'Not found' });
    const auth = request.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !tokenMatches(auth.slice(7), expected)) {
      return reply.code(401).send({ message: 'Invalid admin token' });
    }
    const argv = request.body?.argv;
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) {
      return reply.code(400).send({ message: 'argv must be an array of strings' });
    }
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const write = (line: unknown) => reply.raw.write(`${JSON.stringify(line)}\n`);
    // A CLI that is interrupted closes its connection: long commands (export) stop where they are.
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const outcome = await runCommand(
      {
        config: app.config,
        stores: app.stores,
        logger: request.log as never,
        progress: (message, bar) => write({ progress: message, ...(bar ? { bar } : {}) }),
        signal: gone.signal,
      },
      argv,
    );
    write(outcome);
    reply.raw.end();
  });
};
