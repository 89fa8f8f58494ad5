/**
 * The creators view's endpoints (docs/dashboard.md, "Creators"): the creators the traffic shows
 * over the range, as creators.get-creators gives them with their commission, and the creator
 * programs; owners apply and un-apply a program and link a code of the traffic to a stored
 * creator. Creators are creator-channel data: a member who does not read that channel is refused.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { InvalidInput } from '../kit/errors.ts';
import { creatorRevenueBasis, creatorsInTraffic } from '../analytics/creators.ts';
import { codesOf, linkCreatorCode } from '../store/app/creators.ts';
import { applyCreatorProgram, creatorProgramOut, listCreatorPrograms, unapplyCreatorProgram } from '../store/app/creator-programs.ts';
import { requireOwner, workspaceAccess } from './access.ts';
import { pathId } from './path-id.ts';
import { daysOfView, viewDays } from './store-calendar.ts';

const linkBody = z.object({ code: z.string().max(100) }).strict();

export async function creatorRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/creators', async (request) => {
    const access = workspaceAccess(request);
    const range = daysOfView(request.query, access.timeZone, Date.now());
    const creators = await creatorsInTraffic(app.stores, access, range);
    const revenueBasis = await creatorRevenueBasis(app.stores, access, range, creators, Date.now());
    const programs = await listCreatorPrograms(app.stores.db, access.workspaceId);
    const programName = new Map(programs.map((p) => [String(p.id), p.data.name]));
    return {
      range: viewDays(range),
      creators: creators.map(({ creator, ...figures }) => ({
        ...figures,
        id: creator ? String(creator.id) : null,
        name: creator?.data.name ?? null,
        program: creator ? (programName.get(creator.data.program_id) ?? null) : null,
        active: creator ? creator.data.active : null,
      })),
      programs: programs.map(creatorProgramOut),
      revenue_basis: revenueBasis,
    };
  });

  app.post<{ Params: { id: string }; Body: unknown }>('/dashboard/api/creators/:id/codes', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    const id = pathId(request, 'Creator');
    const body = linkBody.safeParse(request.body);
    if (!body.success) throw new InvalidInput('The body is {"code": "<the code as the traffic carries it>"}');
    const creator = await linkCreatorCode(app.stores.db, access.workspaceId, id, body.data.code, `dashboard:${request.dashboardUser!.email}`);
    return { creator: { id: String(creator.id), name: creator.data.name, tracking_code: creator.data.tracking_code, codes: codesOf(creator) } };
  });

  for (const [action, change] of [['apply', applyCreatorProgram], ['unapply', unapplyCreatorProgram]] as const) {
    app.post<{ Params: { id: string } }>(`/dashboard/api/creator-programs/:id/${action}`, async (request) => {
      const access = workspaceAccess(request);
      requireOwner(access);
      const id = pathId(request, 'Creator program');
      return { program: creatorProgramOut(await change(app.stores.db, access.workspaceId, id, `dashboard:${request.dashboardUser!.email}`)) };
    });
  }
}
