import type { FastifyInstance, FastifyReply } from 'fastify';

/** The lane of an API key's requests: its rate limit and its bound on requests in flight. */
export const keyLane = (keyId: number): string => `key:${keyId}`;

/**
 * The chain every credentialed request runs once its caller is known, on the data API, the tool
 * endpoint and export downloads alike: the lane's rate limit (429; its headers on the answer when
 * there is one), then the lane's bound on requests in flight (429), inside which the work runs.
 */
export async function runInLimits<T>(app: FastifyInstance, lane: string, work: () => Promise<T>, reply?: FastifyReply): Promise<T> {
  const { headers } = await app.limits.consume(lane);
  reply?.headers(headers);
  return app.inFlight.run(lane, work);
}
