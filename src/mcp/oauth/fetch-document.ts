import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { checkedLookup, literalRefusal, PrivateAddress } from '../../workflows/actions/public-address.ts';

export interface FetchLimits {
  /** One time limit over the whole call: connecting, the headers and the last byte of the body. */
  timeoutMs: number;
  maxBytes: number;
  /** The host may resolve to private, loopback or link-local addresses. */
  allowPrivate: boolean;
}

export interface FetchedDocument {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One https GET under the outbound-call rules: public addresses only (the host is resolved once,
 * every address it resolves to is checked, and the connection goes to a checked one), one
 * deadline over the whole call, a bounded body, and no redirect followed (the caller sees the 3xx).
 * Rejects with an Error whose message says what went wrong, ready to show to the client: a host
 * refused for its addresses is named without them, so nobody learns this network's DNS from it.
 */
export function fetchDocument(url: URL, limits: FetchLimits): Promise<FetchedDocument> {
  if (url.protocol !== 'https:') return Promise.reject(new Error('only https is fetched'));
  const refused = literalRefusal(url, limits.allowPrivate);
  if (refused) return Promise.reject(new Error(refused));
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = () => new Error(`the answer is larger than ${limits.maxBytes} bytes`);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      request.destroy();
      if (signal.aborted) reject(new Error(`no complete answer within ${limits.timeoutMs} ms`));
      else if (error instanceof PrivateAddress) reject(new Error(`${url.hostname} resolves to an address that is not public`));
      else reject(error);
    };
    const request = https.request(
      url,
      { headers: { accept: 'application/json', 'user-agent': 'Storelens-OAuth' }, lookup: checkedLookup(limits.allowPrivate) as never, signal },
      (response) => {
        if (Number(response.headers['content-length']) > limits.maxBytes) return fail(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) return fail(tooLarge());
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', fail);
        response.on('close', () => {
          if (!response.complete) fail(new Error('the answer ended before it was complete'));
        });
      },
    );
    request.on('error', fail);
    request.end();
  });
}
