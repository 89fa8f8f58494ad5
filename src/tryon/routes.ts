import type { FastifyPluginAsync } from 'fastify';
import { SESSION_HEADER, requireSession, verifiedStorefront } from './access.ts';
import { baseUrl, type TryOnContext } from './context.ts';
import { TryOnError } from './errors.ts';
import { cancelJobAndPhoto, jobAnswer, requestJob, sessionJob } from './jobs.ts';
import { recordLead } from './leads.ts';
import { clientKeyOf } from './reservations.ts';
import { jobRequest, leadRequest, uploadRequest } from './schema.ts';
import { describeIssues } from '../kit/zod-issues.ts';
import { reserveUpload } from './uploads.ts';
import type { TryOnWorker } from './worker.ts';
import type { z } from 'zod';

function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  // The first problem, phrased for a developer: `field: message` or `field is required`.
  if (!result.success) throw new TryOnError('invalid_request', describeIssues(result.error, { first: true, requiredByName: true, fallback: 'Invalid request' }));
  return result.data;
}

/**
 * The try-on API of docs/try-on.md, under /try-on/v1: each route checks the storefront's origin
 * and the session, parses the body, and answers what the upload, job or lead service returns.
 */
export const tryOnApiRoutes: FastifyPluginAsync<{ ctx: TryOnContext; worker: TryOnWorker }> = async (app, { ctx, worker }) => {
  app.post('/uploads', async (request, reply) => {
    const storefront = await verifiedStorefront(ctx, request, reply);
    const token = request.headers[SESSION_HEADER];
    const session = token === undefined ? null : { row: await requireSession(ctx, request, storefront), token: String(token) };
    const body = parse(uploadRequest, request.body);
    const reservation = await reserveUpload(ctx, { storefront, session, body, clientKey: clientKeyOf(ctx, request), baseUrl: baseUrl(ctx, request) });
    reply.code(200).header('cache-control', 'no-store');
    return reservation;
  });

  app.post('/jobs', async (request, reply) => {
    const storefront = await verifiedStorefront(ctx, request, reply);
    const session = await requireSession(ctx, request, storefront);
    const body = parse(jobRequest, request.body);
    return reply.code(202).send(await requestJob(ctx, worker, { storefront, session, body }));
  });

  app.get<{ Params: { id: string } }>('/jobs/:id', async (request, reply) => {
    const storefront = await verifiedStorefront(ctx, request, reply);
    const session = await requireSession(ctx, request, storefront);
    const job = await sessionJob(ctx, session, request.params.id);
    reply.header('cache-control', 'no-store');
    return jobAnswer(ctx, session, job, baseUrl(ctx, request));
  });

  app.delete<{ Params: { id: string } }>('/jobs/:id', async (request, reply) => {
    const storefront = await verifiedStorefront(ctx, request, reply);
    const session = await requireSession(ctx, request, storefront);
    await cancelJobAndPhoto(ctx, worker, await sessionJob(ctx, session, request.params.id));
    return { status: 'cancelled' };
  });

  app.post<{ Params: { id: string } }>('/jobs/:id/leads', async (request, reply) => {
    const storefront = await verifiedStorefront(ctx, request, reply);
    const session = await requireSession(ctx, request, storefront);
    const job = await sessionJob(ctx, session, request.params.id);
    const body = parse(leadRequest, request.body);
    return recordLead(ctx, { storefront, job, body });
  });
};
