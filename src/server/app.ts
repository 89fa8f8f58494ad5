import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../store/index.ts';
import type { RateLimits } from '../http/rate-limit.ts';
import { createInFlightLimits, inFlightBound, type InFlightLimits } from '../http/in-flight.ts';
import type { HealthCheck } from '../kit/health-check.ts';
import { HttpError, installErrorHandler, sendError } from '../http/errors.ts';
import type { CommandRunner } from './admin-route.ts';
import { registerRoutes } from './routes.ts';
import { installSecurityHeaders } from '../http/security-headers.ts';
import { installCors } from '../http/cors.ts';
import { installWellFormedBodies } from '../http/well-formed-bodies.ts';
import { createWorkflowEngine } from '../workflows/engine.ts';

export interface AppDeps {
  config: Config;
  stores: Stores;
  limits: RateLimits;
  logger: Logger;
  /** The CLI's commands, for its admin route `POST /admin/cli`; an app built without them has no such route. */
  runCommand?: CommandRunner;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    stores: Stores;
    limits: RateLimits;
    inFlight: InFlightLimits;
  }
}

function redisCheck(limits: RateLimits): HealthCheck[] {
  return limits.health() ? [{ name: 'redis', run: () => limits.health()! }] : [];
}

/** Builds the whole HTTP surface; never listens (the CLI's `start` does). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.trustProxy,
    routerOptions: { maxParamLength: 200 },
  });
  app.decorate('config', deps.config);
  app.decorate('stores', deps.stores);
  app.decorate('limits', deps.limits);
  app.decorate('inFlight', createInFlightLimits(inFlightBound(deps.config.queries.maxPerKey, deps.config.rate)));
  app.decorate('healthChecks', [...deps.stores.checks, ...redisCheck(deps.limits)]);
  app.decorateRequest('auth', null);
  installSecurityHeaders(app);
  await installCors(app);
  installErrorHandler(app);
  installWellFormedBodies(app);
  app.setNotFoundHandler((_request, reply) => sendError(reply, new HttpError(404, 'Not found')));
  await registerRoutes(app, deps.runCommand);
  // The workflow engine runs beside the surfaces: it starts once the app is ready and stops with it.
  const workflows = createWorkflowEngine({ stores: deps.stores, config: deps.config.workflows, logger: deps.logger });
  app.addHook('onReady', async () => workflows.start());
  app.addHook('onClose', () => workflows.stop());
  return app;
}
