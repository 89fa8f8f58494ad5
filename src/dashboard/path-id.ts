import type { FastifyRequest } from 'fastify';
import { InvalidInput } from '../kit/errors.ts';

export type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** The stored object's id in a `/:id` path; `noun` names it in the refusal (`Survey id must be numeric`). */
export function pathId(request: IdRequest, noun: string): number {
  if (!/^\d{1,15}$/.test(request.params.id)) throw new InvalidInput(`${noun} id must be numeric`);
  return Number(request.params.id);
}
