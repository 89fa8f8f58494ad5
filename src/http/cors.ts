import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Which other sites' pages may read a route's answers, and what a preflight allows: @fastify/cors
 * options, given per route as `config: { cors: rule }` beside the route (docs/architecture.md,
 * "CORS"). A route without a rule sends no CORS header.
 */
export type CorsRule = Pick<FastifyCorsOptions, 'origin' | 'methods' | 'allowedHeaders' | 'exposedHeaders' | 'maxAge'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    cors?: CorsRule;
  }
}

/**
 * @fastify/cors for the whole app, off until a route opts in. Its hook runs before the surfaces'
 * own hooks and answers a preflight by the route's rule. Not strict: an OPTIONS request without
 * Access-Control-Request-Method is answered by the rule too, rather than with a 400.
 */
export async function installCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, { origin: false, strictPreflight: false });
}

/**
 * The preflight route of `url` under `rule`. The library answers a preflight in its hook; an
 * OPTIONS request that reaches this handler had no origin the rule allows, and gets an empty 204.
 */
export function preflightRoute(app: FastifyInstance, url: string, rule: CorsRule): void {
  app.options(url, { config: { cors: rule } }, async (_request, reply) => reply.code(204).send());
}
