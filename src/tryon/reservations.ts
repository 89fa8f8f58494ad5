import type { FastifyRequest } from 'fastify';
import { clientNetwork } from '../http/client-network.ts';
import type { AppDatabase } from '../store/app-db.ts';
import { countOpenUploads } from '../store/app/tryon-sessions.ts';
import { ORPHAN_UPLOAD_MS, type TryOnContext } from './context.ts';
import { TryOnError } from './errors.ts';

/**
 * The client a reservation is counted against: a keyed hash of its network, so upload rows never
 * hold an address. Anyone can send any Origin header; the address is what a client cannot pick.
 */
export const clientKeyOf = (ctx: TryOnContext, request: FastifyRequest) => ctx.signer.sign(['tryon-client', clientNetwork(request.ip)]);

/**
 * Refuses one more reservation while the client (across workspaces) or the workspace holds the
 * configured number of open ones: reserved within the orphan window and not yet a job, that is,
 * every reservation that may still hold a photo until the sweeper removes it.
 */
export async function checkOpenUploads(ctx: TryOnContext, db: AppDatabase, workspaceId: number, clientKey: string): Promise<void> {
  const { openUploadsPerClient, openUploadsPerWorkspace } = ctx.config.tryon;
  const since = new Date(ctx.now().getTime() - ORPHAN_UPLOAD_MS);
  if (openUploadsPerClient > 0 && (await countOpenUploads(db, { column: 'client_key', value: clientKey }, since)) >= openUploadsPerClient) {
    throw new TryOnError('quota_exceeded', `This client already holds ${openUploadsPerClient} open upload reservations; use them or wait until they expire`);
  }
  if (openUploadsPerWorkspace > 0 && (await countOpenUploads(db, { column: 'workspace_id', value: workspaceId }, since)) >= openUploadsPerWorkspace) {
    throw new TryOnError('quota_exceeded', 'The storefront has too many open upload reservations; try again in a few minutes');
  }
}
