/**
 * The zone a view sends beside its range (`timezone`, docs/dashboard.md, "The store's calendar"):
 * the dashboard names the zone its dates are days of, but the workspace's time zone setting stays
 * authoritative. The parameter is checked as a zone name (a bad one is refused like anywhere
 * else) and then taken out of the query, so every endpoint reads its days in the workspace's zone.
 */
import type { FastifyRequest } from 'fastify';
import { InvalidInput } from '../kit/errors.ts';
import { canonicalTimeZone, timeZoneMessage } from '../kit/calendar/zones.ts';

export async function setAsideSentZone(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (request.method !== 'GET' || !request.url.startsWith('/dashboard/api/') || !query || !Object.hasOwn(query, 'timezone')) return;
  const sent = query.timezone;
  if (typeof sent !== 'string' || canonicalTimeZone(sent) === null) throw new InvalidInput(timeZoneMessage(sent));
  delete query.timezone;
}
