import crypto from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { adminToken } from './runtime-files.ts';
import { runCommand } from './run-command.ts';

function tokenMatches(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * `POST /admin/cli`: runs a CLI command inside the server (which owns the embedded stores).
 * The answer is NDJSON: progress lines, then one `{result}` or `{error}` line.
 */
export const adminRoute: FastifyPluginAsync = async (app) => {
  const expected = adminToken(app.config.dataDir);
  app.post<{ Body: { argv?: unknown } }>('/admin/cli', async (request, reply) => {
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
    const outcome = await runCommand(
      { config: app.config, stores: app.stores, logger: request.log as never, progress: (message) => write({ progress: message }) },
      argv,
    );
    write(outcome);
    reply.raw.end();
  });
};
