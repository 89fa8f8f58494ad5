/**
 * One outbound HTTP call (workflow webhooks, the AI-visibility assistant, ad platform pulls, the
 * try-on image provider, the city database of `geo update`; docs/security.md, "Outbound calls"), bounded twice:
 *
 * - a deadline over the whole call: connecting, sending, the answer's headers and all of its body.
 *   A time limit that only measures silence lets a receiver that sends one byte a second hold the
 *   call as long as it likes; this one ends it at the deadline whatever arrives;
 * - a size bound on the answer's body, counted while it streams in: the call ends at the first
 *   byte past it, so an endless answer costs at most the bound in memory.
 *
 * With `publicOnly` the host must be public (`public-address.ts`): an IP literal is checked before
 * connecting, a name on every address it resolves to, and the connection uses the checked address.
 */
import http from 'node:http';
import https from 'node:https';
import { checkedLookup, literalRefusal, PrivateAddress } from './public-address.ts';

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** The whole call, in milliseconds. */
  deadlineMs: number;
  /** Largest answer body read, in bytes. */
  maxBytes: number;
  /** Ends the call early (a shutdown, a cancelled job). */
  signal?: AbortSignal;
  /** Refuse hosts that are not public addresses. */
  publicOnly?: boolean;
  /** Redirects followed (GET only), within the same deadline; 0 by default. */
  maxRedirects?: number;
}

export interface OutboundAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** Why a call was cut short by its bounds; `status` is the answer's when its headers had arrived. */
export class OutboundCut extends Error {
  constructor(
    readonly reason: 'deadline' | 'too_large' | 'stopped',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function headersOf(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, one);
  }
  return headers;
}

/** A body goes with its length (not chunked), as fetch would send it. */
function withLength({ headers = {}, body }: OutboundRequest): Record<string, string | number> {
  if (body === undefined || Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) return headers;
  return { ...headers, 'content-length': Buffer.byteLength(body) };
}

/** One request and its answer; rejects with OutboundCut, PrivateAddress or the network's error. */
function once(url: URL, request: OutboundRequest, signal: AbortSignal, cutReason: (status?: number) => OutboundCut): Promise<OutboundAnswer> {
  const refused = request.publicOnly ? literalRefusal(url, false) : null;
  if (refused) return Promise.reject(new PrivateAddress(refused));
  if (signal.aborted) return Promise.reject(cutReason());
  const client = url.protocol === 'https:' ? https : http;
  let cut = () => {};
  const answered = new Promise<OutboundAnswer>((resolve, reject) => {
    let response: http.IncomingMessage | undefined;
    const req = client.request(url, {
      method: request.method ?? 'GET',
      headers: withLength(request),
      ...(request.publicOnly ? { lookup: checkedLookup(false) as never } : {}),
    }, async (answer) => {
      response = answer;
      const status = answer.statusCode ?? 0;
      const tooLarge = () => new OutboundCut('too_large', `answer larger than ${request.maxBytes} bytes`, status);
      try {
        if (Number(answer.headers['content-length'] ?? 0) > request.maxBytes) throw tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of answer as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > request.maxBytes) throw tooLarge();
          chunks.push(chunk);
        }
        resolve({ status, headers: headersOf(answer.headers), body: Buffer.concat(chunks) });
      } catch (error) {
        reject(error instanceof OutboundCut ? error : signal.aborted ? cutReason(status) : error);
      } finally {
        answer.destroy();
      }
    });
    req.on('error', (error) => reject(error instanceof OutboundCut || !signal.aborted ? error : cutReason()));
    cut = () => {
      const error = cutReason(response?.statusCode);
      req.destroy(error);
      response?.destroy(error);
    };
    req.end(request.body);
  });
  signal.addEventListener('abort', cut, { once: true });
  return answered.finally(() => signal.removeEventListener('abort', cut));
}

/**
 * Calls `target` within `request.deadlineMs` and reads at most `request.maxBytes` of its answer.
 * Rejects with OutboundCut (deadline, size, or `signal`), PrivateAddress (`publicOnly`) or the
 * network's own error (refused connection, unknown host, reset).
 */
export async function callOutbound(target: string | URL, request: OutboundRequest): Promise<OutboundAnswer> {
  const deadline = AbortSignal.timeout(request.deadlineMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  const cutReason = (status?: number) => deadline.aborted
    ? new OutboundCut('deadline', `no complete answer within ${request.deadlineMs} ms`, status)
    : new OutboundCut('stopped', 'stopped', status);
  let url = new URL(target);
  for (let redirects = 0; ; redirects++) {
    const answer = await once(url, request, signal, cutReason);
    const location = answer.headers.get('location');
    const follow = REDIRECTS.has(answer.status) && location && (request.method ?? 'GET') === 'GET' && redirects < (request.maxRedirects ?? 0);
    if (!follow) return answer;
    url = new URL(location, url);
  }
}
