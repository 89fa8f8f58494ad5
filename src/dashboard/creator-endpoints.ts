/**
 * The creators view's endpoints (docs/dashboard.md, "Creators"): the creators the traffic shows
 * over the range, as creators.get-creators gives them with their commission, and the creator
 * programs; owners apply and un-apply a program. Creators are creator-channel data: a member who
 * does not read that channel is refused.
 */
import type { FastifyInstance } from 'fastify';
import { creatorsInTraffic } from '../analytics/creators.ts';
import { applyCreatorProgram, creatorProgramOut, listCreatorPrograms, unapplyCreatorProgram } from '../store/app/creator-programs.ts';
import { requireUser } from './auth.ts';
import { requireOwner, workspaceAccess } from './access.ts';
import { pathId } from './path-id.ts';
import { daysOfView, viewDays } from './store-calendar.ts';

export async function creatorRoutes(app: FastifyInstance): Promise<void> {
  const onRequest = requireUser(app);

  app.get('/dashboard/api/creators', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const range = daysOfView(request.query, access.timeZone, Date.now());
    const creators = await creatorsInTraffic(app.stores, access, range);
    const programs = await listCreatorPrograms(app.stores.db, access.workspaceId);
    const programName = new Map(programs.map((p) => [String(p.id), p.data.name]));
    return {
      range: viewDays(range),
      creators: creators.map(({ creator, ...figures }) => ({
        ...figures,
        name: creator?.data.name ?? null,
        program: creator ? (programName.get(creator.data.program_id) ?? null) : null,
        active: creator ? creator.data.active : null,
      })),
      programs: programs.map(creatorProgramOut),
    };
  });

  for (const [action, change] of [['apply', applyCreatorProgram], ['unapply', unapplyCreatorProgram]] as const) {
    app.post<{ Params: { id: string } }>(`/dashboard/api/creator-programs/:id/${action}`, { onRequest }, async (request) => {
      const access = workspaceAccess(request);
      requireOwner(access);
      const id = pathId(request, 'Creator program');
      return { program: creatorProgramOut(await change(app.stores.db, access.workspaceId, id, `dashboard:${request.dashboardUser!.email}`)) };
    });
  }
}
