/**
 * AI visibility end to end: prompts tracked through the tool endpoint, run by `ai-visibility run`
 * against a local double of an OpenAI-compatible endpoint (./chat-double.ts), read back with
 * ai-visibility.get-results. The double's answer is chosen by the question; one question gets a
 * 500, one no answer at all, one an answer larger than the client reads, one an answer dribbled a
 * byte at a time (cut at the whole-call deadline although the double is never silent for long).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { toolOk } from '../mcp/rpc.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';
import type { LlmConfig } from '../../src/config.ts';
import { listObjects } from '../../src/store/app/tool-objects.ts';
import { RESULT_KIND, RESULTS_KEPT } from '../../src/ai-visibility/run.ts';
import { startChatDouble, type ChatDouble } from './chat-double.ts';

const KEY = 'sk-test-secret-key';
const ANSWERS: Record<string, string> = {
  'Which running shoes are best?': 'For running, try Stride Co first, then Acme Shoes; Trailfox is good too.',
  'Where can I buy waterproof boots?': 'Trailfox makes good ones, and so does trailfox outlet.',
  'Gift ideas for a runner?': 'Test Shop sells gift cards; so does Acmeplex.',
};

let double: ChatDouble;
let t: TestApp;
let shop: TestWorkspace;
let llm: LlmConfig;

const cli = (...argv: string[]) => runCommand({ config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => {} }, argv);
/** Stored objects without their ids and times (which come from the store); the prompts keep their ids. */
const withoutTimes = (prompts: any[]) =>
  prompts.map(({ created_at: _c, updated_at: _u, ...prompt }) => ({ ...prompt, results: prompt.results.map(({ id: _i, created_at: _a, updated_at: _b, ...r }: any) => r) }));

before(async () => {
  double = await startChatDouble((question) => {
    if (question === 'Broken?') return { status: 500, body: '{"error":{"message":"server error"}}' };
    if (question === 'Slow?') return 'hold';
    if (question === 'Dribbling?') return { dribble: ANSWERS['Which running shoes are best?']! };
    return { content: question === 'Huge?' ? 'x'.repeat(300 * 1024) : ANSWERS[question]! };
  });
  llm = { url: double.url, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 500, allowPrivate: true };
  t = await startTestApp({ llm });
  shop = await createTestWorkspace(t.stores, 'Test shop');
});

after(async () => {
  double.close();
  await t.close();
});

test('ai-visibility run asks each prompt and get-results shows the checks: mentions, position, competitors, failures', async () => {
  const track = (args: object) => toolOk(t.app, shop.headers, 'ai-visibility.create-prompt', args);
  const competitors = ['Stride Co', 'Trailfox', 'Zoomer'];
  const ids: string[] = [];
  for (const prompt of ['Which running shoes are best?', 'Where can I buy waterproof boots?', 'Broken?', 'Slow?', 'Huge?', 'Dribbling?']) {
    ids.push((await track({ prompt, brand: 'Acme Shoes', competitors })).prompt.id);
  }
  ids.push((await track({ prompt: 'Gift ideas for a runner?', competitors: ['Acme'] })).prompt.id);

  const run = await cli('ai-visibility', 'run', '--workspace', String(shop.id));
  const assistant = new URL(llm.url).host;
  const failed = (id: string, error: string) => ({ prompt_id: id, assistant, model: 'gpt-4o-mini', status: 'failed', brand_mentioned: null, position: null, competitors_mentioned: [], error });
  const ok = (id: string, brand_mentioned: boolean, position: number | null, competitors_mentioned: string[]) => ({
    prompt_id: id, assistant, model: 'gpt-4o-mini-2024-07-18', status: 'ok', brand_mentioned, position, competitors_mentioned,
  });
  const expected = [
    ok(ids[0]!, true, 2, ['Stride Co', 'Trailfox']),
    ok(ids[1]!, false, null, ['Trailfox']),
    failed(ids[2]!, 'answered 500'),
    failed(ids[3]!, 'no complete answer within 500 ms'),
    failed(ids[4]!, 'answer larger than 262144 bytes'),
    failed(ids[5]!, 'no complete answer within 500 ms'),
    ok(ids[6]!, true, 1, []),
  ];
  assert.deepEqual(run, { result: { results: expected } });

  assert.equal(double.requests.length, 7);
  assert.deepEqual(double.requests[0], { authorization: `Bearer ${KEY}`, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Which running shoes are best?' }] } });

  const read = await toolOk(t.app, shop.headers, 'ai-visibility.get-results', {});
  assert.equal(read.status, 'configured');
  assert.equal(read.note, undefined);
  const brands = (brand: string, list: string[]) => ({ brand, competitors: list, active: true });
  assert.deepEqual(withoutTimes(read.prompts), [
    ...['Which running shoes are best?', 'Where can I buy waterproof boots?', 'Broken?', 'Slow?', 'Huge?', 'Dribbling?'].map((prompt, i) => ({
      id: ids[i], prompt, ...brands('Acme Shoes', competitors), results: [(({ prompt_id: _p, ...r }) => r)(expected[i]!)],
    })),
    { id: ids[6], prompt: 'Gift ideas for a runner?', ...brands('', ['Acme']), results: [(({ prompt_id: _p, ...r }) => r)(expected[6]!)] },
  ]);
  assert.doesNotMatch(JSON.stringify([run, read]), new RegExp(KEY));
});

test('an endpoint on a private address is refused unless allowed, and recorded as a failed check', async () => {
  const other = await createTestWorkspace(t.stores, 'Other shop');
  const { prompt } = await toolOk(t.app, other.headers, 'ai-visibility.create-prompt', { prompt: 'Which running shoes are best?', brand: 'Acme Shoes' });
  const before = double.requests.length;
  t.config.llm = { ...llm, allowPrivate: false };
  try {
    const run = await cli('ai-visibility', 'run', '--workspace', String(other.id));
    assert.deepEqual(run, {
      result: { results: [{ prompt_id: prompt.id, assistant: new URL(llm.url).host, model: 'gpt-4o-mini', status: 'failed', brand_mentioned: null, position: null, competitors_mentioned: [], error: 'refused: 127.0.0.1 is not a public address' }] },
    });
    assert.equal(double.requests.length, before);
  } finally {
    t.config.llm = llm;
  }
});

test('without an assistant, get-results says not configured and the command refuses', async () => {
  t.config.llm = null;
  try {
    const read = await toolOk(t.app, shop.headers, 'ai-visibility.get-results', { limit: 1 });
    assert.equal(read.status, 'not_configured');
    assert.equal(read.note, 'No assistant is configured (STORELENS_LLM_URL), so tracked prompts are never run and have no results.');
    assert.equal(read.prompts.length, 1);
    assert.deepEqual(await cli('ai-visibility', 'run', '--workspace', String(shop.id)), {
      error: { message: 'No assistant is configured (STORELENS_LLM_URL), so tracked prompts are never run and have no results.' },
    });
  } finally {
    t.config.llm = llm;
  }
});

test('get-results shows the newest 20 checks of a prompt, oldest of them first', async () => {
  const third = await createTestWorkspace(t.stores, 'Third shop');
  const { prompt } = await toolOk(t.app, third.headers, 'ai-visibility.create-prompt', { prompt: 'Where can I buy waterproof boots?', brand: 'Acme Shoes' });
  for (let run = 0; run < 21; run++) await cli('ai-visibility', 'run', '--workspace', String(third.id));
  const stored = await listObjects(t.stores.db, third.id, RESULT_KIND, { parentId: Number(prompt.id) });
  assert.equal(stored.length, 21);
  const read = await toolOk(t.app, third.headers, 'ai-visibility.get-results', {});
  assert.deepEqual(read.prompts[0].results.map((r: any) => r.id), stored.slice(1).map((r) => String(r.id)));
});

test(`a prompt keeps its newest ${RESULTS_KEPT} checks: older ones go as new ones arrive`, async () => {
  const fourth = await createTestWorkspace(t.stores, 'Fourth shop');
  const { prompt } = await toolOk(t.app, fourth.headers, 'ai-visibility.create-prompt', { prompt: 'Gift ideas for a runner?' });
  for (let run = 0; run < RESULTS_KEPT; run++) await cli('ai-visibility', 'run', '--workspace', String(fourth.id));
  const first = await listObjects(t.stores.db, fourth.id, RESULT_KIND, { parentId: Number(prompt.id) });
  assert.equal(first.length, RESULTS_KEPT);
  for (let run = 0; run < 3; run++) await cli('ai-visibility', 'run', '--workspace', String(fourth.id));
  const kept = await listObjects(t.stores.db, fourth.id, RESULT_KIND, { parentId: Number(prompt.id) });
  assert.equal(kept.length, RESULTS_KEPT);
  assert.deepEqual(kept.slice(0, RESULTS_KEPT - 3).map((r) => r.id), first.slice(3).map((r) => r.id));
});
