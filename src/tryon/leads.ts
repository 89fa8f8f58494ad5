import { findLead, insertLead, type TryOnJob } from '../store/app/tryon-jobs.ts';
import type { Storefront } from '../store/app/tryon-storefronts.ts';
import type { TryOnContext } from './context.ts';
import { TryOnError } from './errors.ts';
import type { leadRequest } from './schema.ts';
import type { z } from 'zod';

/**
 * `POST /jobs/{id}/leads`: the shopper's contact request on a completed try-on, with marketing
 * consent in the storefront's current version. One e-mail per result: sending the same one
 * again is accepted (`created: false`), another one is refused.
 */
export async function recordLead(
  ctx: TryOnContext,
  request: { storefront: Storefront; job: TryOnJob; body: z.infer<typeof leadRequest> },
): Promise<{ status: 'received'; created: boolean }> {
  const { storefront, job, body } = request;
  if (body.marketing_consent !== true) throw new TryOnError('invalid_consent', 'marketing_consent must be true');
  if (body.marketing_version !== storefront.marketingVersion) {
    throw new TryOnError('invalid_consent', 'marketing_version is not the current marketing version');
  }
  if (job.status !== 'done') throw new TryOnError('lead_not_allowed', 'Only a completed try-on accepts a contact request');
  const email = body.email.trim().toLowerCase();
  const { db } = ctx.stores;
  const created = await insertLead(db, { workspaceId: storefront.workspaceId, jobId: job.job_id, email, marketingVersion: storefront.marketingVersion }, ctx.now());
  if (!created && (await findLead(db, job.job_id))?.email !== email) {
    throw new TryOnError('lead_not_allowed', 'This result already has a contact request');
  }
  return { status: 'received', created };
}
