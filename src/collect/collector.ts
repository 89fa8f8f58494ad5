/**
 * `GET /pixel.js` and `POST /collect` (docs/collection.md sections 1-2). The pixel id names the
 * workspace; any origin may post. A 202 goes out only after the rows are in the write-ahead log.
 */
import type { FastifyPluginAsync } from 'fastify';
import { preflightRoute, type CorsRule } from '../http/cors.ts';
import { findWorkspaceByPixelId } from '../store/app/workspaces.ts';
import { InvalidInput, NotFound } from '../kit/errors.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { collectBody, toRows } from './payload.ts';
import { parseAgent } from './visitor.ts';
import { cityDatabase } from './geo/city-database.ts';
import { visitorPlace } from './geo/visitor-place.ts';
import { createCollectLimits } from './limits.ts';
import { scriptRoute } from './pixel/serve.ts';
import type { BatchWriter } from './wal.ts';

export const COLLECT_BODY_LIMIT = 64 * 1024;
const PIXEL_CACHE_MS = 60_000;

/** Any page may load the pixel and post to the collector, with a JSON body; a preflight holds for a day. */
const ANY_PAGE: CorsRule = { origin: '*', methods: 'POST, OPTIONS', allowedHeaders: 'content-type', maxAge: 86_400 };

/** Parses JSON text from the collector's raw string body. */
export function parseJsonBody(body: unknown): unknown {
  if (typeof body !== 'string' || body.trim() === '') throw new InvalidInput('Invalid JSON');
  try {
    return JSON.parse(body);
  } catch {
    throw new InvalidInput('Invalid JSON');
  }
}

export const collectorRoutes: FastifyPluginAsync<{ writer: BatchWriter }> = async (app, { writer }) => {
  const limits = createCollectLimits(app.config.collect);
  const places = cityDatabase(app.config.dataDir, app.log as never);
  const { countryHeader, cityHeader } = app.config;
  /** Known pixel ids for a minute: the hot path should not read the app database per request. */
  const pixels = new Map<string, { workspaceId: number; until: number }>();

  async function workspaceOf(pixelId: string, now: number): Promise<number> {
    const cached = pixels.get(pixelId);
    if (cached && cached.until > now) return cached.workspaceId;
    const workspace = await findWorkspaceByPixelId(app.stores.db, pixelId);
    if (!workspace) throw new NotFound('Unknown pixel id');
    if (pixels.size > 10_000) pixels.clear();
    pixels.set(pixelId, { workspaceId: workspace.id, until: now + PIXEL_CACHE_MS });
    return workspace.id;
  }

  scriptRoute(app, '/pixel.js', './pixel.js', ANY_PAGE);

  preflightRoute(app, '/collect', ANY_PAGE);
  app.post('/collect', { bodyLimit: COLLECT_BODY_LIMIT, config: { cors: ANY_PAGE } }, async (request, reply) => {
    const raw = parseJsonBody(request.body);
    const pixelId = (raw as { pixel_id?: unknown } | null)?.pixel_id;
    if (typeof pixelId !== 'string' || pixelId === '') throw new InvalidInput('pixel_id: is required');
    await limits.consume(pixelId, request.ip);
    const now = Date.now();
    const workspaceId = await workspaceOf(pixelId, now);
    const parsed = collectBody.safeParse(raw);
    if (!parsed.success) throw new InvalidInput(describeIssues(parsed.error));
    const agent = parseAgent(request.headers['user-agent'] ?? '');
    // A bot's request is still checked whole (its answer says nothing), but its place is not looked up.
    const place = agent.bot ? { country: '', city: '' } : await visitorPlace(places, request.ip, {
      country: request.headers[countryHeader],
      city: cityHeader === null ? undefined : request.headers[cityHeader],
    });
    const rows = toRows(parsed.data, { workspaceId, now, deviceType: agent.deviceType, countryCode: place.country, city: place.city });
    if (agent.bot) return reply.code(202).send({ accepted: 0 });
    await writer.append(rows);
    return reply.code(202).send({ accepted: parsed.data.items.length });
  });
};
