/**
 * The loyalty view's endpoints (docs/dashboard.md, "Loyalty"): every member reads the programs
 * with their figures and the repeat purchases of the range, as loyalty.get-programs and
 * loyalty.get-analytics give them; owners set up a program, as `loyalty create` does.
 */
import type { FastifyInstance } from 'fastify';
import { loyaltyPrograms, repeatPurchases } from '../analytics/loyalty.ts';
import { createLoyaltyProgram, MAX_PROGRAMS, parseLoyaltyProgram } from '../store/app/loyalty-programs.ts';
import { requireOwner, workspaceAccess } from './access.ts';
import { daysOfView, viewDays } from './store-calendar.ts';

const PROGRAM_BODY_LIMIT = 4096;

export async function loyaltyRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/loyalty', async (request) => {
    const access = workspaceAccess(request);
    const range = daysOfView(request.query, access.timeZone, Date.now());
    const programs = await loyaltyPrograms(app.stores, access, access.timeZone, { limit: MAX_PROGRAMS, offset: 0 });
    // Orders carry no channel: a member limited to some channels sees the programs without figures.
    const everyChannel = access.visibility.channels === null;
    return {
      range: viewDays(range),
      programs: programs.map(({ program, ...figures }) => ({ id: String(program.id), ...program.data, ...figures })),
      repeat: everyChannel ? await repeatPurchases(app.stores.ch, access.workspaceId, range) : null,
    };
  });

  app.post<{ Body: unknown }>('/dashboard/api/loyalty/programs', { bodyLimit: PROGRAM_BODY_LIMIT }, async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    const created = await createLoyaltyProgram(app.stores.db, access.workspaceId, parseLoyaltyProgram(request.body), `dashboard:${request.dashboardUser!.email}`);
    return { loyalty_program: { id: String(created.id), ...created.data } };
  });
}
