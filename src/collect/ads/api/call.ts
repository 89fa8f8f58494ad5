/**
 * One HTTP call to an ad platform's API (`callOutbound`: a deadline over the whole call and a size
 * bound on the answer as it streams in), JSON parsing, and the platform's word on whether (and
 * when) to try again. Every platform-specific rule lives in the caller's `classify`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { callOutbound, OutboundCut } from '../../../kit/outbound.ts';

export interface ApiSettings {
  /** First wait before a retry, doubled on each further attempt (docs/integrations.md). */
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  progress(message: string): void;
  /** Aborted when the server shuts down: the pull stops at its next call or wait. */
  signal?: AbortSignal;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A pull that cannot go on: a message for people (expired token, refused credentials, ...). */
export class AdSyncError extends Error {}

/** The pull was stopped from our side (shutdown), not by the platform. */
export class AdSyncStopped extends AdSyncError {}

/** Waits, unless the pull is stopped first. */
export async function pause(settings: ApiSettings, ms: number, label: string): Promise<void> {
  try {
    await sleep(ms, undefined, { signal: settings.signal });
  } catch {
    throw new AdSyncStopped(`${label}: stopped`);
  }
}

/** `retry`: wait at least `afterMs` (the platform's own estimate, or 0), then try again. */
export type Verdict = { ok: true } | { retry: true; afterMs: number; reason: string } | { fail: string };

export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** What one call sends: `body` as text (a form or JSON). */
export interface ApiRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

function readJson(status: number, body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new AdSyncError(`the API answered HTTP ${status} with a body that is not JSON`);
  }
}

export async function callApi(
  settings: ApiSettings,
  label: string,
  request: () => { url: string; init: ApiRequest },
  classify: (answer: ApiAnswer) => Verdict,
): Promise<ApiAnswer> {
  for (let attempt = 1; ; attempt++) {
    const { url, init } = request();
    let answer: ApiAnswer;
    try {
      const response = await callOutbound(url, { ...init, deadlineMs: settings.timeoutMs, maxBytes: MAX_ANSWER_BYTES, signal: settings.signal });
      answer = { status: response.status, headers: response.headers, body: readJson(response.status, response.body) };
    } catch (error) {
      if (error instanceof AdSyncError) throw error;
      if (error instanceof OutboundCut && error.reason === 'too_large') throw new AdSyncError(`${label}: the API answered more than ${MAX_ANSWER_BYTES} bytes`);
      if (settings.signal?.aborted) throw new AdSyncStopped(`${label}: stopped`);
      if (attempt >= settings.maxAttempts) throw new AdSyncError(`${label}: the API could not be reached (${(error as Error).message})`);
      await wait(settings, label, attempt, 0, `network error: ${(error as Error).message}`);
      continue;
    }
    const verdict = classify(answer);
    if ('ok' in verdict) return answer;
    if ('fail' in verdict) throw new AdSyncError(`${label}: ${verdict.fail}`);
    if (attempt >= settings.maxAttempts) throw new AdSyncError(`${label}: ${verdict.reason}; gave up after ${attempt} attempts`);
    await wait(settings, label, attempt, verdict.afterMs, verdict.reason);
  }
}

async function wait(settings: ApiSettings, label: string, attempt: number, afterMs: number, reason: string): Promise<void> {
  const ms = Math.max(afterMs, settings.retryBaseMs * 2 ** (attempt - 1));
  settings.progress(`${label}: ${reason}; retrying in ${(ms / 1000).toFixed(1)}s`);
  await pause(settings, ms, label);
}
