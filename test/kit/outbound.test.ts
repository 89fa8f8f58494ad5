/**
 * The outbound-call helper against a loopback server that misbehaves on purpose: one that dribbles
 * its answer a byte a second (an idle timeout never fires on it; the whole-call deadline must),
 * one that never answers, one whose answer never ends or declares itself too large, and one that
 * redirects. Each server counts what it sent, so a test can tell the call was cut, not finished.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callOutbound, OutboundCut } from '../../src/kit/outbound.ts';
import { PrivateAddress } from '../../src/kit/public-address.ts';

let server: http.Server;
let base: string;
/** Bytes of body each path sent before its connection closed. */
const sent = new Map<string, number>();
const DRIBBLE_BYTES = 30;

before(async () => {
  server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    let count = 0;
    const write = (chunk: string | Buffer) => {
      count += Buffer.byteLength(chunk);
      sent.set(path, count);
      return response.write(chunk);
    };
    response.on('close', () => sent.set(path, count));
    if (path === '/dribble') {
      response.writeHead(200, { 'content-type': 'application/json' });
      let left = DRIBBLE_BYTES;
      const timer = setInterval(() => {
        if (response.destroyed) return clearInterval(timer);
        write('x');
        if (--left === 0) {
          clearInterval(timer);
          response.end();
        }
      }, 1000);
      response.on('close', () => clearInterval(timer));
    } else if (path === '/silent') {
      // Reads the request and never answers.
    } else if (path === '/endless') {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'y');
      const pump = () => {
        while (!response.destroyed && write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    } else if (path === '/declared-large') {
      response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      write('z');
    } else if (path === '/redirect') {
      response.writeHead(302, { location: '/small' }).end();
    } else if (path === '/echo') {
      let body = '';
      request.on('data', (c) => (body += c));
      request.on('end', () => response.writeHead(201, { 'x-seen-length': String(request.headers['content-length']) }).end(`got ${body}`));
    } else {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('small answer');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const cut = (reason: OutboundCut['reason'], message: string, status?: number) => (error: unknown) => {
  assert.ok(error instanceof OutboundCut, String(error));
  assert.deepEqual([error.reason, error.message, error.status], [reason, message, status]);
  return true;
};

describe('callOutbound', () => {
  test('reads an answer within its bounds, with its status, headers and body; a body goes with its length', async () => {
    const answer = await callOutbound(`${base}/small`, { deadlineMs: 5000, maxBytes: 1024 });
    assert.deepEqual([answer.status, answer.headers.get('content-type'), answer.body.toString()], [200, 'text/plain', 'small answer']);
    const posted = await callOutbound(`${base}/echo`, { method: 'POST', body: 'héllo', deadlineMs: 5000, maxBytes: 1024 });
    assert.deepEqual([posted.status, posted.headers.get('x-seen-length'), posted.body.toString()], [201, '6', 'got héllo']);
  });

  test('a receiver that dribbles a byte a second is cut at the whole-call deadline, not when it falls silent', async () => {
    await assert.rejects(callOutbound(`${base}/dribble`, { deadlineMs: 2500, maxBytes: 1024 }), cut('deadline', 'no complete answer within 2500 ms', 200));
    await waitFor(() => server.listening && sent.has('/dribble'));
    assert.ok(sent.get('/dribble')! < DRIBBLE_BYTES, `the call ended before the receiver sent all it had (sent ${sent.get('/dribble')})`);
  });

  test('a receiver that never answers is cut at the deadline', async () => {
    await assert.rejects(callOutbound(`${base}/silent`, { deadlineMs: 300, maxBytes: 1024 }), cut('deadline', 'no complete answer within 300 ms'));
  });

  test('an answer that never ends is cut at the size bound as it streams in', async () => {
    await assert.rejects(callOutbound(`${base}/endless`, { deadlineMs: 60_000, maxBytes: 100_000 }), cut('too_large', 'answer larger than 100000 bytes', 200));
  });

  test('an answer that declares a length over the bound is refused before its body is read', async () => {
    await assert.rejects(callOutbound(`${base}/declared-large`, { deadlineMs: 60_000, maxBytes: 100_000 }), cut('too_large', 'answer larger than 100000 bytes', 200));
  });

  test('the caller\'s signal stops the call', async () => {
    const stop = new AbortController();
    const call = callOutbound(`${base}/silent`, { deadlineMs: 60_000, maxBytes: 1024, signal: stop.signal });
    stop.abort();
    await assert.rejects(call, cut('stopped', 'stopped'));
  });

  test('redirects are followed only when asked', async () => {
    assert.equal((await callOutbound(`${base}/redirect`, { deadlineMs: 5000, maxBytes: 1024 })).status, 302);
    const followed = await callOutbound(`${base}/redirect`, { deadlineMs: 5000, maxBytes: 1024, maxRedirects: 2 });
    assert.deepEqual([followed.status, followed.body.toString()], [200, 'small answer']);
  });

  test('publicOnly refuses a loopback host, as a literal or by name', async () => {
    await assert.rejects(callOutbound(`${base}/small`, { deadlineMs: 5000, maxBytes: 1024, publicOnly: true }), (e: unknown) => e instanceof PrivateAddress && e.message === '127.0.0.1 is not a public address');
    await assert.rejects(callOutbound(base.replace('127.0.0.1', 'localhost'), { deadlineMs: 5000, maxBytes: 1024, publicOnly: true }), (e: unknown) => e instanceof PrivateAddress && /^localhost resolves to /.test(e.message));
    await assert.rejects(callOutbound('http://[64:ff9b::7f00:1]:9/', { deadlineMs: 5000, maxBytes: 1024, publicOnly: true }), (e: unknown) => e instanceof PrivateAddress && e.message === '64:ff9b::7f00:1 is not a public address');
  });
});

/** Lets the server's close handlers run (the count is final once the connection is closed). */
async function waitFor(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setImmediate(resolve));
}
