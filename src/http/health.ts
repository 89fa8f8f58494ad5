/**
 * `GET /healthz` (docs/operations.md): one named check per dependency. `degraded` means the
 * service still answers with a fallback (e.g. rate limits from process memory); `failing` means
 * requests that need it cannot be served, and the whole answer turns into a 503. The answer shows
 * a check's `detail` (a short reason, or an object of counts), or `"ok"` when it has none.
 */
import type { FastifyInstance } from 'fastify';
import type { CheckDetail, CheckResult, HealthCheck } from '../kit/health-check.ts';

/** A check that gives no answer within this time counts as failing. */
const CHECK_TIMEOUT_MS = 5000;

declare module 'fastify' {
  interface FastifyInstance {
    healthChecks: HealthCheck[];
  }
}

/** Adds a check to `/healthz`; features call this when they register. */
export function addHealthCheck(app: FastifyInstance, check: HealthCheck): void {
  app.healthChecks.push(check);
}

async function runCheck(check: HealthCheck): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ state: 'failing', detail: `no answer within ${CHECK_TIMEOUT_MS / 1000} s` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => check.run()), late]);
  } catch (error) {
    return { state: 'failing', detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export interface HealthAnswer {
  statusCode: 200 | 503;
  body: { status: 'ok' | 'degraded' | 'unavailable'; checks: Record<string, CheckDetail> };
}

export async function checkHealth(checks: HealthCheck[]): Promise<HealthAnswer> {
  const results = await Promise.all(checks.map(async (check) => [check.name, await runCheck(check)] as const));
  const states = new Set(results.map(([, result]) => result.state));
  const status = states.has('failing') ? 'unavailable' : states.has('degraded') ? 'degraded' : 'ok';
  return {
    statusCode: status === 'unavailable' ? 503 : 200,
    body: {
      status,
      checks: Object.fromEntries(results.map(([name, result]) => [name, result.detail ?? 'ok'])),
    },
  };
}

/** `GET /healthz`: every check's answer; a failing one makes it a 503. */
export async function healthRoute(app: FastifyInstance): Promise<void> {
  app.get('/healthz', async (_request, reply) => {
    const { statusCode, body } = await checkHealth(app.healthChecks);
    return reply.code(statusCode).send(body);
  });
}
