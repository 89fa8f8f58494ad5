import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { UnknownSourceError } from '../analytics/sources.ts';
import { AnalyticsUnavailableError } from '../store/clickhouse.ts';

/** An error whose message is part of the contract and goes to the client as `{message}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const forbidden = (message: string) => new HttpError(403, message);

/** Maps any thrown value to the contract's `{message}` body; 5xx details stay in the log. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof AnalyticsUnavailableError) return new HttpError(503, error.message);
  if (error instanceof UnknownSourceError) return badRequest(error.message);
  if (error instanceof ZodError) return badRequest(error.issues[0]?.message ?? 'Invalid parameter');
  const fastifyError = error as FastifyError;
  if (fastifyError?.statusCode === 413) return new HttpError(413, 'Request body is too large');
  if (fastifyError?.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new HttpError(fastifyError.statusCode, fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
      ? 'Unsupported content type'
      : 'Invalid request');
  }
  return new HttpError(500, 'Internal server error');
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply.code(error.statusCode).headers(error.headers).send({ message: error.message });
}

/** The request's path without its query string, which may carry credentials (`/mcp?api_key=`). */
export const pathOf = (request: FastifyRequest) => request.url.split('?', 1)[0];

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const httpError = toHttpError(error);
    // A read the store could not answer is logged (warn) where it failed; it is no fault here.
    if (httpError.statusCode >= 500 && !(error instanceof AnalyticsUnavailableError)) request.log.error({ err: error, path: pathOf(request) }, 'request failed');
    else request.log.info({ status: httpError.statusCode, message: httpError.message }, 'request rejected');
    return sendError(reply, httpError);
  });
}
