/**
 * notify_webhook (docs/workflows.md, "Webhooks"): POSTs the firing as JSON, signed with the
 * workspace's webhook secret (`x-storelens-signature`: hex HMAC-SHA256 of the body, which carries
 * `fired_at`, so a receiver can refuse old deliveries). Each try has a time limit; a failed try is
 * repeated after a wait that doubles (network errors, timeouts, 408, 429 and 5xx answers only),
 * up to `tries`. Private, loopback and link-local addresses are refused unless allowed.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { checkedLookup, literalRefusal, PrivateAddress } from './public-address.ts';

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

function postOnce(url: URL, body: string, signature: string, options: WebhookOptions): Promise<TryResult> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [SIGNATURE_HEADER]: signature, 'user-agent': 'Storelens-Workflows' },
        lookup: checkedLookup(options.allowPrivate) as never,
        timeout: options.timeoutMs,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', (error) => resolve({ error }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => resolve({ error }));
    request.end(body);
  });
}

const retryable = (result: TryResult) => 'error' in result || result.status === 408 || result.status === 429 || result.status >= 500;

const tried = (n: number) => `after ${n} tr${n === 1 ? 'y' : 'ies'}`;

export async function deliverWebhook(target: string, body: string, secret: string, options: WebhookOptions): Promise<WebhookResult> {
  const url = new URL(target);
  const refused = literalRefusal(url, options.allowPrivate);
  if (refused) return { ok: false, tries: 0, detail: `refused: ${refused}` };
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
