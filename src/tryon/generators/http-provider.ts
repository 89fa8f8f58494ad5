import { setTimeout as sleep } from 'node:timers/promises';
import { callOutbound } from '../../kit/outbound.ts';
import type { FailureReason } from '../errors.ts';
import { GenerationError, type Generator } from './generator.ts';

export interface HttpProviderOptions {
  url: string;
  token: string | null;
  /** Between two polls of the provider. */
  pollMs?: number;
  /** Give up (generation_failed) after this long. */
  timeoutMs?: number;
  /** Deadline of one call to the provider, its whole answer read. */
  callTimeoutMs?: number;
}

/**
 * Largest answer read from the provider: a finished job carries the image in base64 (4/3 of its
 * size), and try-on images stay well under 16 MB.
 */
export const MAX_PROVIDER_ANSWER_BYTES = 24 * 1024 * 1024;

type ProviderJob = { id?: string; status?: string; image_base64?: string; mime_type?: string; error?: { code?: string } };

function parseJob(body: Buffer): ProviderJob {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed !== null && typeof parsed === 'object' ? (parsed as ProviderJob) : {};
  } catch {
    return {};
  }
}

/** Provider error codes and statuses -> the safe reasons a storefront may see. */
export function reasonFor(status: number, code: string | undefined): FailureReason {
  if (status === 429 || status === 503 || code === 'busy' || code === 'rate_limited') return 'provider_busy';
  if (code === 'content_policy' || code === 'safety' || code === 'content_rejected') return 'content_rejected';
  if (code === 'unreadable_input' || code === 'invalid_image' || status === 415) return 'input_unreadable';
  return 'generation_failed';
}

/**
 * An image-editing provider over HTTP (the production path):
 * `POST {url}/v1/edits` {person_image, reference_image (base64), client_reference} -> {id};
 * `GET {url}/v1/edits/{id}` -> {status: pending|done|failed, image_base64, mime_type, error: {code}};
 * `DELETE {url}/v1/edits/{id}` cancels. Provider messages never reach the client.
 */
export function createHttpProvider(options: HttpProviderOptions): Generator {
  const base = options.url.replace(/\/+$/, '');
  const pollMs = options.pollMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const callTimeoutMs = options.callTimeoutMs ?? 60_000;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;

  async function call(method: string, path: string, signal: AbortSignal, body?: unknown): Promise<ProviderJob> {
    let response: { status: number; body: Buffer };
    try {
      response = await callOutbound(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        deadlineMs: callTimeoutMs,
        maxBytes: MAX_PROVIDER_ANSWER_BYTES,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new GenerationError('provider_busy', `provider unreachable: ${(error as Error).message}`);
    }
    const payload = parseJob(response.body);
    if (response.status < 200 || response.status >= 300) throw new GenerationError(reasonFor(response.status, payload.error?.code), `provider answered ${response.status}`);
    return payload;
  }

  return {
    kind: 'http',
    async generate({ jobId, person, reference, signal }) {
      const submitted = await call('POST', '/v1/edits', signal, {
        person_image: person.toString('base64'),
        reference_image: reference.toString('base64'),
        client_reference: jobId,
      });
      if (!submitted.id) throw new GenerationError('generation_failed', 'provider returned no id');
      const path = `/v1/edits/${encodeURIComponent(submitted.id)}`;
      const deadline = Date.now() + timeoutMs;
      try {
        for (;;) {
          const job = await call('GET', path, signal);
          if (job.status === 'done' && job.image_base64) {
            return { image: Buffer.from(job.image_base64, 'base64'), mimeType: job.mime_type === 'image/png' ? 'image/png' : 'image/jpeg' };
          }
          if (job.status === 'failed') throw new GenerationError(reasonFor(200, job.error?.code), 'provider reported failure');
          if (Date.now() > deadline) throw new GenerationError('generation_failed', 'provider timed out');
          await sleep(pollMs, undefined, { signal });
        }
      } catch (error) {
        if (signal.aborted || (error instanceof GenerationError && error.message === 'provider timed out')) {
          await callOutbound(`${base}${path}`, { method: 'DELETE', headers, deadlineMs: callTimeoutMs, maxBytes: 64 * 1024 }).catch(() => undefined);
        }
        throw error;
      }
    },
  };
}
