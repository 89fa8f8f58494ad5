/**
 * The HTTP image provider's calls against a loopback provider that misbehaves: one that answers a
 * job's status a byte at a time (never silent for long, never done) and one whose answer never
 * ends. Each call is cut at its whole-call deadline or at the answer's size bound, and the job
 * fails with the safe reason `provider_busy`. The end-to-end path is in lifecycle.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpProvider, MAX_PROVIDER_ANSWER_BYTES } from '../../src/tryon/generators/http-provider.ts';
import { GenerationError } from '../../src/tryon/generators/generator.ts';

let provider: http.Server;
let url: string;

before(async () => {
  provider = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') return res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ id: req.url === '/v1/edits' ? 'dribble' : 'x' }));
      if (req.url === '/v1/edits/dribble') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
after(() => {
  provider.closeAllConnections();
  provider.close();
});

const input = () => ({ jobId: 'job-1', person: Buffer.from('p'), reference: Buffer.from('r'), signal: new AbortController().signal });

test('a status answered a byte at a time is cut at the call\'s deadline: provider_busy', async () => {
  const generator = createHttpProvider({ url, token: null, callTimeoutMs: 500 });
  await assert.rejects(generator.generate(input()), (error: unknown) => {
    assert.ok(error instanceof GenerationError);
    assert.deepEqual([error.reason, error.message], ['provider_busy', 'provider unreachable: no complete answer within 500 ms']);
    return true;
  });
});

test('an answer that never ends is cut at the size bound: provider_busy', async () => {
  const generator = createHttpProvider({ url: `${url}/endless`, token: null, callTimeoutMs: 60_000 });
  await assert.rejects(generator.generate(input()), (error: unknown) => {
    assert.ok(error instanceof GenerationError);
    assert.deepEqual([error.reason, error.message], ['provider_busy', `provider unreachable: answer larger than ${MAX_PROVIDER_ANSWER_BYTES} bytes`]);
    return true;
  });
});
