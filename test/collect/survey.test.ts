/**
 * Post-purchase surveys through their public surface: drafted with the surveys.create tool,
 * published and closed with the CLI's commands (run in-process, as the admin route runs them),
 * fetched and answered through GET and POST /collect/survey, read back with surveys.get-responses.
 * Fixture: workspace "Shop" and its survey "After your order" (a single choice, a multiple choice,
 * a rating, an NPS and a text question), workspace "Other" with a live survey of its own.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestWorkspace, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { runCommand } from '../../src/cli/run-command.ts';
import { createLogger } from '../../src/log.ts';
import { buildApp } from '../../src/server/app.ts';
import { createRateLimits } from '../../src/http/rate-limit.ts';
import { callTool, toolOk } from '../mcp/rpc.ts';
import { BOT_UA, DESKTOP_UA, eventually } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let other: TestWorkspace;
let surveyId: string;
let otherSurveyId: string;

const QUESTIONS = [
  { text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Friend or family', 'Podcast'] },
  { text: 'What else do you shop for?', type: 'multiple_choice', options: ['Shoes', 'Bags', 'Hats'] },
  { text: 'How was checkout?', type: 'rating' },
  { text: 'How likely are you to recommend us?', type: 'nps' },
  { text: 'Anything else?', type: 'text' },
];

async function cli(...argv: string[]) {
  return runCommand({ config: t.config, stores: t.stores, logger: createLogger('silent'), progress: () => {} }, argv);
}

async function draft(ws: TestWorkspace, title: string, questions: unknown[] = QUESTIONS): Promise<string> {
  return (await toolOk(t.app, ws.headers, 'surveys.create', { title, questions })).survey.id;
}

async function getSurvey(pixelId: string) {
  const response = await t.app.inject({ method: 'GET', url: `/collect/survey?pixel_id=${encodeURIComponent(pixelId)}`, headers: { origin: 'https://shop.example' } });
  return { status: response.statusCode, cors: response.headers['access-control-allow-origin'], body: response.body ? response.json() : null };
}

async function answer(body: unknown, userAgent = DESKTOP_UA) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/collect/survey',
    headers: { 'content-type': 'text/plain', 'user-agent': userAgent, origin: 'https://shop.example' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.json() };
}

const post = (transaction: string, answers: unknown[], extra: Record<string, unknown> = {}) =>
  answer({ pixel_id: shop.pixelId, survey_id: surveyId, transaction_id: transaction, visitor_id: '4711', answers, ...extra });

async function responses(id = surveyId, ws = shop) {
  return toolOk(t.app, ws.headers, 'surveys.get-responses', { survey_id: id });
}

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shop');
  other = await createTestWorkspace(t.stores, 'Other');
  surveyId = await draft(shop, 'After your order');
  otherSurveyId = await draft(other, 'Other survey', [{ text: 'Why us?', type: 'text' }]);
  assert.deepEqual(await cli('survey', 'publish', '--workspace', String(other.id), '--survey', otherSurveyId), {
    result: { survey: { id: otherSurveyId, title: 'Other survey', questions: [{ text: 'Why us?', type: 'text' }], status: 'live' } },
  });
});
after(() => t.close());

describe('publishing', () => {
  test('a draft is not shown: GET answers 204, and its answers are refused with 404', async () => {
    assert.deepEqual(await getSurvey(shop.pixelId), { status: 204, cors: '*', body: null });
    assert.deepEqual(await post('T-0', [{ question: 0, value: 'Instagram' }]), { status: 404, body: { message: `Survey ${surveyId} is not live` } });
  });

  test('survey publish makes it the live survey, which GET returns whole', async () => {
    const published = await cli('survey', 'publish', '--workspace', String(shop.id), '--survey', surveyId);
    assert.deepEqual(published, { result: { survey: { id: surveyId, title: 'After your order', questions: QUESTIONS, status: 'live' } } });
    assert.deepEqual(await getSurvey(shop.pixelId), { status: 200, cors: '*', body: { survey: { id: surveyId, title: 'After your order', questions: QUESTIONS } } });
    // Publishing the live survey again changes nothing.
    assert.deepEqual(await cli('survey', 'publish', '--workspace', String(shop.id), '--survey', surveyId), published);
  });

  test('one survey is live at a time; the CLI refuses unknown ids, other workspaces\' surveys and bad options', async () => {
    const second = await draft(shop, 'Second');
    assert.deepEqual(await cli('survey', 'publish', '--workspace', String(shop.id), '--survey', second), {
      error: { message: `Survey ${surveyId} is live; a workspace shows one survey at a time: close it first` },
    });
    assert.deepEqual(await cli('survey', 'publish', '--workspace', String(shop.id), '--survey', otherSurveyId), { error: { message: `Survey ${otherSurveyId} not found` } });
    assert.deepEqual(await cli('survey', 'close', '--workspace', String(shop.id), '--survey', second), { error: { message: `Survey ${second} is not live (it is draft)` } });
    assert.deepEqual(await cli('survey', 'publish', '--workspace', String(shop.id), '--survey', 'abc'), { error: { message: '--survey must be a survey id' } });
    assert.deepEqual(await cli('survey', 'publish', '--workspace', String(shop.id)), { error: { message: '--survey is required' } });
    assert.deepEqual(await cli('survey', 'close', '--workspace', '999', '--survey', surveyId), { error: { message: 'Workspace 999 not found' } });
  });

  test('GET refuses a missing or unknown pixel id', async () => {
    assert.deepEqual(await getSurvey(''), { status: 400, cors: '*', body: { message: 'pixel_id: is required' } });
    assert.deepEqual(await getSurvey('px_unknown'), { status: 404, cors: '*', body: { message: 'Unknown pixel id' } });
  });
});

describe('answers', () => {
  test('an answer to every question is accepted with 202 and read back by surveys.get-responses', async () => {
    const answers = [
      { question: 0, value: 'Podcast' },
      { question: 1, value: ['Bags', 'Shoes'] },
      { question: 2, value: 4 },
      { question: 3, value: 10 },
      { question: 4, value: '  Fast shipping, thanks! \ud800 ' },
    ];
    assert.deepEqual(await post('T-1', answers), { status: 202, body: { accepted: 1 } });
    const read = await eventually(() => responses(), (r) => r.responses.length === 1);
    assert.deepEqual(read.survey, { ...read.survey, id: surveyId, title: 'After your order', status: 'live', questions: QUESTIONS });
    assert.equal(read.responses.length, 1);
    const [response] = read.responses;
    assert.match(response.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Text is trimmed and made well-formed (a lone surrogate becomes U+FFFD).
    assert.deepEqual(response, {
      transaction_id: 'T-1',
      answers: [...answers.slice(0, 4), { question: 4, value: 'Fast shipping, thanks! \ufffd' }],
      created_at: response.created_at,
    });
  });

  test('a second answer for the same order replaces the first', async () => {
    assert.equal((await post('T-2', [{ question: 0, value: 'Instagram' }])).status, 202);
    await eventually(() => responses(), (r) => r.responses.some((x: any) => x.transaction_id === 'T-2'));
    assert.equal((await post('T-2', [{ question: 0, value: 'Friend or family' }, { question: 2, value: 5 }])).status, 202);
    const read = await eventually(() => responses(), (r) => r.responses.find((x: any) => x.transaction_id === 'T-2')?.answers.length === 2);
    assert.deepEqual(
      read.responses.map((r: any) => [r.transaction_id, r.answers]),
      [
        ['T-1', read.responses[0].answers],
        ['T-2', [{ question: 0, value: 'Friend or family' }, { question: 2, value: 5 }]],
      ],
    );
  });

  test('each value is checked against its question: 400 naming the question', async () => {
    const cases: [unknown[], string][] = [
      [[{ question: 0, value: 'TikTok' }], 'question 0 (single_choice): expected one of its options'],
      [[{ question: 0, value: ['Instagram'] }], 'question 0 (single_choice): expected one of its options'],
      [[{ question: 1, value: 'Shoes' }], 'question 1 (multiple_choice): expected a list of its options, each at most once'],
      [[{ question: 1, value: ['Shoes', 'Shoes'] }], 'question 1 (multiple_choice): expected a list of its options, each at most once'],
      [[{ question: 1, value: [] }], 'question 1 (multiple_choice): expected a list of its options, each at most once'],
      [[{ question: 2, value: 6 }], 'question 2 (rating): expected a whole number from 1 to 5'],
      [[{ question: 2, value: 0 }], 'question 2 (rating): expected a whole number from 1 to 5'],
      [[{ question: 2, value: 2.5 }], 'question 2 (rating): expected a whole number from 1 to 5'],
      [[{ question: 2, value: '4' }], 'question 2 (rating): expected a whole number from 1 to 5'],
      [[{ question: 3, value: 11 }], 'question 3 (nps): expected a whole number from 0 to 10'],
      [[{ question: 3, value: -1 }], 'question 3 (nps): expected a whole number from 0 to 10'],
      [[{ question: 4, value: 'x'.repeat(2001) }], 'question 4 (text): expected text of 1 to 2000 characters'],
      [[{ question: 4, value: '   ' }], 'question 4 (text): expected text of 1 to 2000 characters'],
      [[{ question: 4, value: 3 }], 'question 4 (text): expected text of 1 to 2000 characters'],
      [[{ question: 5, value: 'x' }], `question 5: survey ${'%'} has questions 0 to 4`],
      [[{ question: 2, value: 3 }, { question: 2, value: 4 }], 'question 2: answered more than once'],
    ];
    for (const [answers, message] of cases) {
      assert.deepEqual(await post('T-bad', answers), { status: 400, body: { message: message.replace('%', surveyId) } }, JSON.stringify(answers));
    }
    assert.equal((await post('T-max', [{ question: 4, value: 'y'.repeat(2000) }])).status, 202);
  });

  test('hostile bodies are refused whole, never a 500', async () => {
    const base = { pixel_id: shop.pixelId, survey_id: surveyId, transaction_id: 'T-h', answers: [{ question: 2, value: 3 }] };
    const cases: [unknown, number, string][] = [
      ['not json', 400, 'Invalid JSON'],
      [[], 400, 'pixel_id: is required'],
      [{ ...base, pixel_id: 'px_nope' }, 404, 'Unknown pixel id'],
      [{ ...base, survey_id: 7 }, 400, 'survey_id: expected the survey id (digits)'],
      [{ ...base, survey_id: '1e3' }, 400, 'survey_id: expected the survey id (digits)'],
      [{ ...base, transaction_id: '' }, 400, 'transaction_id: is required'],
      [{ ...base, transaction_id: 'x'.repeat(201) }, 400, 'transaction_id: at most 200 characters'],
      [{ ...base, visitor_id: '0' }, 400, "visitor_id: expected the pixel's visitor id (digits)"],
      [{ ...base, answers: [] }, 400, 'answers: must not be empty'],
      [{ ...base, answers: {} }, 400, 'answers: expected an array of answers'],
      [{ ...base, answers: [{ question: '__proto__', value: 1 }] }, 400, 'answers.0.question: expected the question index'],
      [{ ...base, answers: [{ question: 0, value: { toString: 1 } }] }, 400, 'answers.0.value: expected text, a number or a list of options'],
      [{ ...base, survey_id: otherSurveyId }, 404, `Survey ${otherSurveyId} is not live`],
    ];
    for (const [body, status, message] of cases) {
      assert.deepEqual(await answer(body), { status, body: { message } }, JSON.stringify(body).slice(0, 80));
    }
    const huge = await t.app.inject({ method: 'POST', url: '/collect/survey', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ ...base, junk: 'x'.repeat(70_000) }) });
    assert.deepEqual([huge.statusCode, huge.json()], [413, { message: 'Request body is too large' }]);
  });

  test('answers from a bot are acknowledged and dropped', async () => {
    assert.deepEqual(await post('T-bot', [{ question: 2, value: 1 }], {}), { status: 202, body: { accepted: 1 } });
    assert.deepEqual(await answer({ pixel_id: shop.pixelId, survey_id: surveyId, transaction_id: 'T-bot2', answers: [{ question: 2, value: 1 }] }, BOT_UA), { status: 202, body: { accepted: 0 } });
    const read = await eventually(() => responses(), (r) => r.responses.some((x: any) => x.transaction_id === 'T-bot'));
    assert.deepEqual(read.responses.filter((r: any) => r.transaction_id.startsWith('T-bot')).map((r: any) => r.transaction_id), ['T-bot']);
  });

  test('survey close stops the widget and refuses later answers; the responses stay', async () => {
    const closed = await cli('survey', 'close', '--workspace', String(shop.id), '--survey', surveyId);
    assert.deepEqual(closed, { result: { survey: { id: surveyId, title: 'After your order', questions: QUESTIONS, status: 'closed' } } });
    assert.deepEqual(await getSurvey(shop.pixelId), { status: 204, cors: '*', body: null });
    assert.deepEqual(await post('T-late', [{ question: 2, value: 3 }]), { status: 404, body: { message: `Survey ${surveyId} is not live` } });
    const { surveys } = await toolOk(t.app, shop.headers, 'surveys.get-responses', {});
    assert.deepEqual(surveys.map((s: any) => [s.id, s.title, s.status, s.responses]), [
      [surveyId, 'After your order', 'closed', 4],
      [surveys[1].id, 'Second', 'draft', 0],
    ]);
    // The other workspace sees its own survey only, and cannot read this one's responses.
    const foreign = await callTool(t.app, other.headers, 'surveys.get-responses', { survey_id: surveyId });
    assert.deepEqual(foreign.result?.structuredContent, { error: { code: 'not_found', message: `Survey ${surveyId} not found` } });
  });

  test('the collector\'s rate limits hold for the survey routes, per pixel and client', async () => {
    // A second app on the same stores with the limits on (its own data dir for the collector's log).
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-survey-limits-'));
    const config = { ...t.config, dataDir, collect: { ...t.config.collect, perClientPerMinute: 2 } };
    const limits = await createRateLimits(config.rate, null, createLogger('silent'));
    const limited = await buildApp({ config, stores: t.stores, limits, logger: createLogger('silent') });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.inject({ method: 'GET', url: `/collect/survey?pixel_id=${other.pixelId}` })).statusCode);
      const post = await limited.inject({ method: 'POST', url: '/collect/survey', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ pixel_id: other.pixelId }) });
      assert.deepEqual([...statuses, post.statusCode, post.headers['retry-after'] !== undefined], [200, 200, 429, 429, true]);
    } finally {
      await limited.close();
      await limits.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('surveys.create', () => {
  test('choice questions need their options, other types take none, each option once', async () => {
    const issues = async (question: unknown) =>
      (await callTool(t.app, shop.headers, 'surveys.create', { title: 'x', questions: [question] })).error?.data?.issues;
    assert.deepEqual(await issues({ text: 'Where from?', type: 'single_choice' }), [
      { path: 'questions.0.options', message: 'a single_choice question needs at least 2 options' },
    ]);
    assert.deepEqual(await issues({ text: 'Which?', type: 'multiple_choice', options: ['Only one'] }), [
      { path: 'questions.0.options', message: 'a multiple_choice question needs at least 2 options' },
    ]);
    assert.deepEqual(await issues({ text: 'Rate us', type: 'rating', options: ['1', '2'] }), [
      { path: 'questions.0.options', message: 'a rating question takes no options' },
    ]);
    assert.deepEqual(await issues({ text: 'Where from?', type: 'single_choice', options: ['Ad', 'Friend', 'Ad'] }), [
      { path: 'questions.0.options', message: 'option "Ad" is listed twice' },
    ]);
  });
});
