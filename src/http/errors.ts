import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { DomainError, type DomainErrorKind } from '../kit/errors.ts';
import { describeIssues, issueDetail } from '../kit/zod-issues.ts';

/**
 * An answer only HTTP has (401, 405, 413, 429 with its headers); its message is part of the
 * contract and goes to the client as `{message}`, with `detail` beside it when there is help to
 * give. Refusals any surface may meet are domain errors.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly detail?: string,
  ) {
    super(message);
  }
}

const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid_input: 400,
  access_denied: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
};

/** The data API's wording of a refused parameter: the schema's own message, which names it. */
export const PARAMETER_ISSUE = { first: true, bare: true, fallback: 'Invalid parameter' } as const;

/** Maps any thrown value to the contract's `{message}` (and `detail`) body; 5xx details stay in the log. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return new HttpError(DOMAIN_STATUS[error.kind], error.message, {}, error.detail);
  if (error instanceof ZodError) return new HttpError(400, describeIssues(error, PARAMETER_ISSUE), {}, issueDetail(error));
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
  const body = error.detail ? { message: error.message, detail: error.detail } : { message: error.message };
  return reply.code(error.statusCode).headers(error.headers).send(body);
}

/** The request's path without its query string, which may carry credentials (`/mcp?api_key=`). */
export const pathOf = (request: FastifyRequest) => request.url.split('?', 1)[0];

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const httpError = toHttpError(error);
    // A read the store could not answer (503) is logged (warn) where it failed; it is no fault here.
    if (httpError.statusCode >= 500 && !(error instanceof DomainError)) request.log.error({ err: error, path: pathOf(request) }, 'request failed');
    else request.log.info({ status: httpError.statusCode, message: httpError.message }, 'request rejected');
    return sendError(reply, httpError);
  });
}
