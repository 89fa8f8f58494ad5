/**
 * Owner-only endpoints of the settings view (docs/dashboard.md, "Settings"): workspace settings,
 * API keys, the pixel snippet, integrations, the try-on storefront and the workspace's users.
 * Every route checks membership and the owner role before it reads or writes anything.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z, ZodError } from 'zod';
import { InvalidInput, NotFound } from '../kit/errors.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { isValidScope } from '../analytics/permissions.ts';
import { pixelHealth } from '../analytics/queries/health/pixel-health.ts';
import { findWorkspace, getSettings } from '../store/app/workspaces.ts';
import { createApiKey, listApiKeys, revokeApiKeyById } from '../store/app/api-keys.ts';
import { findWebhookSecret } from '../store/app/webhooks.ts';
import { findStorefront, upsertStorefront, STOREFRONT_DEFAULTS, STOREFRONT_LIMITS } from '../store/app/tryon-storefronts.ts';
import { listWorkspaceMembers } from '../store/app/users.ts';
import { listShopIntegrations } from '../store/app/shop-integrations.ts';
import { listAdConnections } from '../store/app/ad-connections.ts';
import { SETTINGS_BODY_LIMIT } from '../store/app/settings.ts';
import { changeSettings } from '../analytics/workspace-settings.ts';
import { requireOwner, workspaceAccess, type WorkspaceAccess } from './access.ts';

function ownerOf(request: FastifyRequest): WorkspaceAccess {
  const access = workspaceAccess(request);
  requireOwner(access);
  return access;
}

/** zod's first issue as the 400 message, naming the field. */
const invalid = (error: ZodError) => new InvalidInput(describeIssues(error, { first: true, root: 'body', fallback: 'Invalid body' }));

const keyBody = z.object({
  scopes: z.array(z.string().max(64)).min(1, { error: 'choose at least one scope' }).max(40),
}).strict();

const ORIGIN = /^https?:\/\/[^/\s?#@]+\/?$/;
const limits = STOREFRONT_LIMITS;
const storefrontBody = z.object({
  origins: z.array(z.string().max(limits.originLength).regex(ORIGIN, { error: 'must be an origin like https://shop.example' })
    .refine(URL.canParse, { error: 'must be an origin like https://shop.example' })).max(limits.origins),
  consent_version: z.string().regex(/^[\w.:-]{1,64}$/),
  marketing_version: z.string().regex(/^[\w.:-]{1,64}$/),
  session_attempts: z.number().int().min(1).max(limits.sessionAttempts),
  daily_attempts: z.number().int().min(1).max(limits.dailyAttempts),
}).strict();

function baseUrl(app: FastifyInstance, request: FastifyRequest): string {
  return (app.config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/$/, '');
}

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/settings', async (request) => {
    const access = ownerOf(request);
    return { settings: await getSettings(app.stores.db, access.workspaceId) };
  });

  // A list of 100,000 ids of 200 characters is about 20 MB of JSON (docs/security.md).
  app.put<{ Body: unknown }>('/dashboard/api/settings', { bodyLimit: SETTINGS_BODY_LIMIT }, async (request) => {
    const access = ownerOf(request);
    return { settings: await changeSettings(app.stores, access.workspaceId, request.body) };
  });

  app.get('/dashboard/api/keys', async (request) => {
    const access = ownerOf(request);
    const keys = await listApiKeys(app.stores.db, access.workspaceId);
    return {
      keys: keys.map((k) => ({ id: k.id, key_prefix: k.keyPrefix, scopes: k.scopes, created_at: k.createdAt, revoked_at: k.revokedAt })),
    };
  });

  app.post<{ Body: unknown }>('/dashboard/api/keys', async (request, reply) => {
    const access = ownerOf(request);
    const body = keyBody.safeParse(request.body);
    if (!body.success) throw invalid(body.error);
    const scopes = [...new Set(body.data.scopes)];
    const wrong = scopes.filter((s) => !isValidScope(s));
    if (wrong.length) throw new InvalidInput(`Invalid scopes: ${wrong.join(', ')}`);
    reply.code(201);
    return createApiKey(app.stores.db, access.workspaceId, scopes);
  });

  app.delete<{ Params: { id: string } }>('/dashboard/api/keys/:id', async (request) => {
    const access = ownerOf(request);
    if (!/^\d{1,15}$/.test(request.params.id)) throw new InvalidInput('Key id must be numeric');
    if (!(await revokeApiKeyById(app.stores.db, access.workspaceId, Number(request.params.id)))) {
      throw new NotFound('No active key with this id in this workspace');
    }
    return { revoked: true };
  });

  /** The pixel snippet with the newest event, and the webhook URLs orders come in through. */
  app.get('/dashboard/api/install', async (request) => {
    const access = ownerOf(request);
    const workspace = (await findWorkspace(app.stores.db, access.workspaceId))!;
    const now = Date.now();
    const health = await pixelHealth(app.stores.ch, { workspaceId: access.workspaceId }, now);
    const base = baseUrl(app, request);
    return {
      pixel_id: workspace.pixelId,
      snippet: [
        '<script>window.storelens=window.storelens||function(){(storelens.q=storelens.q||[]).push(arguments)};</script>',
        `<script async src="${base}/pixel.js" data-pixel-id="${workspace.pixelId}"></script>`,
      ].join('\n'),
      last_event_at: health.last_event_at || null,
      events_last_24h: Number(health.events_last_24h),
      last_conversion_at: health.last_conversion_at || null,
      order_webhook: {
        url: `${base}/webhooks/orders?workspace=${access.workspaceId}`,
        secret_created: (await findWebhookSecret(app.stores.db, app.stores.secrets, access.workspaceId)) !== undefined,
      },
      shops: (await listShopIntegrations(app.stores.db, access.workspaceId)).map((s) => ({
        platform: s.platform,
        shop: s.shop,
        webhook_url: `${base}/webhooks/${s.platform}`,
        updated_at: s.updatedAt,
      })),
      // Credentials stay sealed in app state: only what identifies the account and its last pull.
      ad_accounts: (await listAdConnections(app.stores.db, app.stores.secrets, access.workspaceId)).map((c) => ({
        platform: c.platform,
        account_id: c.accountId,
        last_sync_at: c.lastSyncAt,
        last_sync_error: c.lastSyncError,
      })),
    };
  });

  app.get('/dashboard/api/storefront', async (request) => {
    const access = ownerOf(request);
    const storefront = await findStorefront(app.stores.db, access.workspaceId);
    const s = storefront ?? { origins: [], ...STOREFRONT_DEFAULTS };
    return {
      configured: storefront !== undefined,
      origins: s.origins,
      consent_version: s.consentVersion,
      marketing_version: s.marketingVersion,
      session_attempts: s.sessionAttempts,
      daily_attempts: s.dailyAttempts,
    };
  });

  app.put<{ Body: unknown }>('/dashboard/api/storefront', async (request) => {
    const access = ownerOf(request);
    const body = storefrontBody.safeParse(request.body);
    if (!body.success) throw invalid(body.error);
    const b = body.data;
    const s = await upsertStorefront(app.stores.db, access.workspaceId, {
      origins: [...new Set(b.origins.map((o) => new URL(o).origin))],
      consentVersion: b.consent_version,
      marketingVersion: b.marketing_version,
      sessionAttempts: b.session_attempts,
      dailyAttempts: b.daily_attempts,
    });
    return {
      configured: true, origins: s.origins, consent_version: s.consentVersion, marketing_version: s.marketingVersion,
      session_attempts: s.sessionAttempts, daily_attempts: s.dailyAttempts,
    };
  });

  app.get('/dashboard/api/members', async (request) => {
    const access = ownerOf(request);
    const members = await listWorkspaceMembers(app.stores.db, access.workspaceId);
    return { members: members.map((m) => ({ email: m.email, role: m.role, scopes: m.scopes, created_at: m.createdAt })) };
  });
}
