/**
 * The creators view's endpoint (docs/dashboard.md, "Creators"): the creators the traffic shows
 * over the range, as creators.get-creators gives them, and the creator programs. Creators are
 * creator-channel data: a member who does not read that channel is refused.
 */
import type { FastifyInstance } from 'fastify';
import { CREATOR_PROGRAM_KIND, creatorsInTraffic } from '../analytics/creators.ts';
import { listObjects, MAX_OBJECTS_PER_KIND } from '../store/app/tool-objects.ts';
import { requireUser } from './auth.ts';
import { workspaceAccess } from './access.ts';
import { daysOfView, rangeDays } from './store-calendar.ts';

interface CreatorProgram {
  name: string;
  commission: Record<string, unknown>;
  applied: boolean;
}

export async function creatorRoutes(app: FastifyInstance): Promise<void> {
  const onRequest = requireUser(app);

  app.get('/dashboard/api/creators', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const range = daysOfView(request.query, access.timeZone, Date.now());
    const creators = await creatorsInTraffic(app.stores, access, range);
    const programs = await listObjects<CreatorProgram>(app.stores.db, access.workspaceId, CREATOR_PROGRAM_KIND, { limit: MAX_OBJECTS_PER_KIND, offset: 0 });
    const programName = new Map(programs.map((p) => [String(p.id), p.data.name]));
    return {
      range: rangeDays(range),
      creators: creators.map(({ creator, ...figures }) => ({
        ...figures,
        name: creator?.data.name ?? null,
        program: creator ? (programName.get(creator.data.program_id) ?? null) : null,
        active: creator ? creator.data.active : null,
      })),
      programs: programs.map((p) => ({ id: String(p.id), ...p.data })),
    };
  });
}
