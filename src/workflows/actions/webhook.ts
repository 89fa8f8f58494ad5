/**
 * notify_webhook (docs/workflows.md, "Webhooks"): POSTs the firing as JSON, signed with the
 * workspace's webhook secret (`x-storelens-signature`: hex HMAC-SHA256 of the body, which carries
 * `fired_at`, so a receiver can refuse old deliveries). Each try has a deadline over the whole
 * call (`callOutbound`); of the answer only the status counts, and at most MAX_ANSWER_BYTES of its
 * body are read. A failed try is repeated after a wait that doubles (network errors, timeouts, 408,
 * 429 and 5xx answers only), up to `tries`. Private, loopback and link-local addresses are refused
 * unless allowed.
 */
import crypto from 'node:crypto';
import { callOutbound, OutboundCut } from '../../kit/outbound.ts';
import { PrivateAddress } from '../../kit/public-address.ts';

export interface WebhookOptions {
  timeoutMs: number;
  tries: number;
  /** The wait before the second try; doubled before each next one. */
  retryMs: number;
  allowPrivate: boolean;
  sleep(ms: number): Promise<void>;
}

export interface WebhookResult {
  ok: boolean;
  tries: number;
  detail: string;
}

export const SIGNATURE_HEADER = 'x-storelens-signature';

export function signBody(body: string, secret: string): string {
  return crypto.createHmac('sha256', secret).update(body).digest('hex');
}

type TryResult = { status: number } | { error: Error };

/** A receiver's answer body is not needed; past this much it is no longer read (its status stands). */
export const MAX_ANSWER_BYTES = 64 * 1024;

async function postOnce(url: URL, body: string, signature: string, options: WebhookOptions): Promise<TryResult> {
  try {
    const answer = await callOutbound(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [SIGNATURE_HEADER]: signature, 'user-agent': 'Storelens-Workflows' },
      body,
      deadlineMs: options.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      publicOnly: !options.allowPrivate,
    });
    return { status: answer.status };
  } catch (error) {
    if (error instanceof OutboundCut && error.reason === 'too_large' && error.status !== undefined) return { status: error.status };
    return { error: error as Error };
  }
}

const retryable = (result: TryResult) => 'error' in result || result.status === 408 || result.status === 429 || result.status >= 500;

const tried = (n: number) => `after ${n} tr${n === 1 ? 'y' : 'ies'}`;

export async function deliverWebhook(target: string, body: string, secret: string, options: WebhookOptions): Promise<WebhookResult> {
  const url = new URL(target);
  const signature = signBody(body, secret);
  for (let attempt = 1; ; attempt++) {
    const result = await postOnce(url, body, signature, options);
    if ('error' in result && result.error instanceof PrivateAddress) return { ok: false, tries: 0, detail: `refused: ${result.error.message}` };
    const answer = 'error' in result ? result.error.message : `answered ${result.status}`;
    if ('status' in result && result.status >= 200 && result.status < 300) return { ok: true, tries: attempt, detail: `${answer} ${tried(attempt)}` };
    if (!retryable(result) || attempt >= options.tries) return { ok: false, tries: attempt, detail: `${answer} ${tried(attempt)}` };
    await options.sleep(options.retryMs * 2 ** (attempt - 1));
  }
}
