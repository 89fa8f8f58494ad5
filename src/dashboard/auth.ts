/**
 * Dashboard sign-in, sessions and CSRF (docs/dashboard.md, "Signing in"). A session is a random
 * cookie value whose sha256 is kept in app state with an expiry; every write also carries the
 * session's CSRF token in `x-csrf-token`.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import type { RateLimits } from '../http/rate-limit.ts';
import { AccessDenied, InvalidInput } from '../kit/errors.ts';
import { findUser, findUserByEmail, listMemberships, type Membership } from '../store/app/users.ts';
import {
  createDashboardSession,
  deleteDashboardSession,
  deleteExpiredSessions,
  findDashboardSession,
} from '../store/app/dashboard-sessions.ts';
import { MAX_PASSWORD_LENGTH, verifyPassword } from './passwords.ts';
import { memberTimeZone, memberVisibility } from './access.ts';

export const SESSION_COOKIE = 'storelens_session';
export const SESSION_LIFETIME_MS = 7 * 86_400_000;
export const CSRF_HEADER = 'x-csrf-token';

export const BAD_CREDENTIALS = 'Wrong email or password';
export const NOT_SIGNED_IN = 'Not signed in';
export const BAD_CSRF = 'Missing or wrong CSRF token';

export interface DashboardUser {
  userId: number;
  email: string;
  sessionId: number;
  csrfToken: string;
  memberships: Membership[];
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboardUser: DashboardUser | null;
  }
}

const signInBody = z.object({
  email: z.string().max(254),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

/**
 * Failed sign-ins are limited per account (5 per 15 minutes) and per client address (20 per 15
 * minutes), counted where the key limits are (Redis with REDIS_URL, shared by every process): a
 * guesser can neither hammer one account from many addresses nor many accounts from one, nor
 * multiply the tries by the number of nodes. A success clears the account's count.
 */
function signInLimits(limits: RateLimits) {
  const perAccount = limits.attempts('signin-account', 5, 15 * 60);
  const perClient = limits.attempts('signin-client', 20, 15 * 60);
  return {
    async check(email: string, client: string): Promise<void> {
      for (const [counter, key] of [[perAccount, email], [perClient, client]] as const) {
        const waitMs = await counter.blockedFor(key);
        if (waitMs !== null) {
          throw new HttpError(429, 'Too many sign-in attempts; try again later', { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
        }
      }
    },
    async failed(email: string, client: string): Promise<void> {
      await Promise.all([perAccount.failed(email), perClient.failed(client)]);
    },
    async succeeded(email: string): Promise<void> {
      await perAccount.reset(email);
    },
  };
}

function cookieOptions(app: FastifyInstance) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: (app.config.publicUrl ?? '').startsWith('https:'),
  };
}

/** The signed-in user of this request, or null (no cookie, unknown or expired session). */
async function loadUser(app: FastifyInstance, request: FastifyRequest): Promise<DashboardUser | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return null;
  const session = await findDashboardSession(app.stores.db, token);
  if (!session) return null;
  const user = await findUser(app.stores.db, session.userId);
  if (!user) return null;
  return {
    userId: user.id,
    email: user.email,
    sessionId: session.id,
    csrfToken: session.csrfToken,
    memberships: await listMemberships(app.stores.db, user.id),
  };
}

function csrfMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * The one hook of the dashboard's JSON endpoints (plugin.ts registers them all under it; sign-in
 * alone stays outside): 401 without a live session, 403 on a write without the session's CSRF token.
 */
export function requireUser(app: FastifyInstance) {
  return async (request: FastifyRequest) => {
    const user = await loadUser(app, request);
    if (!user) throw new HttpError(401, NOT_SIGNED_IN);
    if (request.method !== 'GET' && request.method !== 'HEAD' && !csrfMatches(request.headers[CSRF_HEADER], user.csrfToken)) {
      throw new AccessDenied(BAD_CSRF);
    }
    request.dashboardUser = user;
  };
}

/** Whether the request carries a live session (for pages: sign-in or the app). */
export async function isSignedIn(app: FastifyInstance, request: FastifyRequest): Promise<boolean> {
  return (await loadUser(app, request)) !== null;
}

export function meBody(user: DashboardUser) {
  return {
    email: user.email,
    csrf_token: user.csrfToken,
    workspaces: user.memberships.map((m) => ({
      id: m.workspaceId,
      name: m.workspaceName,
      currency: m.currency,
      timezone: memberTimeZone(m),
      role: m.role,
      profit: memberVisibility(m).profit,
    })),
  };
}

/** POST /dashboard/api/sign-in: the one JSON endpoint open without a session. */
export async function signInRoute(app: FastifyInstance): Promise<void> {
  const limits = signInLimits(app.limits);
  app.post('/dashboard/api/sign-in', async (request, reply: FastifyReply) => {
    const parsed = signInBody.safeParse(request.body);
    if (!parsed.success) throw new InvalidInput('Send {"email","password"} as JSON');
    const email = parsed.data.email.trim().toLowerCase();
    await limits.check(email, request.ip);
    const user = await findUserByEmail(app.stores.db, email);
    if (!(await verifyPassword(parsed.data.password, user?.passwordHash)) || !user) {
      await limits.failed(email, request.ip);
      throw new HttpError(401, BAD_CREDENTIALS);
    }
    await limits.succeeded(email);
    await deleteExpiredSessions(app.stores.db);
    const { token, session } = await createDashboardSession(app.stores.db, user.id, SESSION_LIFETIME_MS);
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(app), maxAge: SESSION_LIFETIME_MS / 1000 });
    const memberships = await listMemberships(app.stores.db, user.id);
    return meBody({ userId: user.id, email: user.email, sessionId: session.id, csrfToken: session.csrfToken, memberships });
  });
}

/** POST /dashboard/api/sign-out, GET /dashboard/api/me (behind the session hook, as every endpoint). */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  app.post('/dashboard/api/sign-out', async (request, reply) => {
    await deleteDashboardSession(app.stores.db, request.dashboardUser!.sessionId);
    reply.clearCookie(SESSION_COOKIE, cookieOptions(app));
    return { signed_out: true };
  });

  app.get('/dashboard/api/me', async (request) => meBody(request.dashboardUser!));
}
