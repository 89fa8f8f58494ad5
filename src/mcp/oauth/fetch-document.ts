import net from 'node:net';
import { callOutbound, OutboundCut } from '../../kit/outbound.ts';
import { PrivateAddress } from '../../kit/public-address.ts';

export interface FetchLimits {
  /** One time limit over the whole call: connecting, the headers and the last byte of the body. */
  timeoutMs: number;
  maxBytes: number;
  /** The host may resolve to private, loopback or link-local addresses. */
  allowPrivate: boolean;
}

export interface FetchedDocument {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * One https GET under the outbound-call rules (`callOutbound`): public addresses only, one
 * deadline over the whole call, a bounded body, and no redirect followed (the caller sees the 3xx).
 * Rejects with an Error whose message says what went wrong, ready to show to the client: a host
 * name refused for its addresses is named without them, so nobody learns this network's DNS from it.
 */
export async function fetchDocument(url: URL, limits: FetchLimits): Promise<FetchedDocument> {
  if (url.protocol !== 'https:') throw new Error('only https is fetched');
  try {
    const answer = await callOutbound(url, {
      headers: { accept: 'application/json', 'user-agent': 'Storelens-OAuth' },
      deadlineMs: limits.timeoutMs,
      maxBytes: limits.maxBytes,
      publicOnly: !limits.allowPrivate,
    });
    return { status: answer.status, headers: answer.headers, body: answer.body.toString('utf8') };
  } catch (error) {
    if (error instanceof PrivateAddress && net.isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0) {
      throw new Error(`${url.hostname} resolves to an address that is not public`);
    }
    if (error instanceof OutboundCut && error.reason === 'too_large') throw new Error(`the answer is larger than ${limits.maxBytes} bytes`);
    throw error;
  }
}
