/**
 * The surveys view's endpoints over HTTP, with answers posted through the collector.
 * Fixture (workspace "Shop", all on 2026-03-10 UTC): visitor 1 lands from google (s11, 09:00) and
 * again from instagram (s12, 11:00) and buys T-1 for 100.00 in s12; visitor 2 lands from google
 * (s21, 10:00) and buys T-2 for 50.00; visitor 3 comes untagged (s31) and buys T-3 for 30.00.
 * The survey "After your order" asks "How did you hear about us?" (Instagram, Google, Friend or
 * family, Podcast) and "Rate us" (rating). Answers: T-1 Instagram, T-2 Instagram, T-3 Friend or
 * family, T-4 (no pixel order) Podcast; ratings 5, 4, 4 on T-1 to T-3.
 * Personas: owen (owner), vic (viewer), mia (viewer with read:meta).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestWorkspace, insertRows, startTestApp, type TestApp, type TestWorkspace } from '../helper.ts';
import { callTool, toolOk } from '../mcp/rpc.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import { DESKTOP_UA, eventually } from '../collect/helpers.ts';
import { createUser, signIn, type Signed } from './helpers.ts';

let t: TestApp;
let shop: TestWorkspace;
let surveyId: string;
const as: Record<string, Signed> = {};
const RANGE = 'start_date=2026-03-10&end_date=2026-03-10';

before(async () => {
  t = await startTestApp({ collect: { flushMs: 20, maxRows: 5000, perClientPerMinute: 0, perPixelPerSecond: 0 } });
  shop = await createTestWorkspace(t.stores, 'Shop');
  const ev = (session: number, visitor: number, time: string, adv_source = '') =>
    ({ store_id: shop.id, dt: `2026-03-10 ${time}`, name: 'pageview', session_id: session, visitor_id: visitor, pathname: '/', adv_source });
  await insertRows(t.stores, 'events', [ev(11, 1, '09:00:00', 'google'), ev(12, 1, '11:00:00', 'instagram'), ev(21, 2, '10:00:00', 'google'), ev(31, 3, '10:30:00')]);
  const buy = (session: number, visitor: number, time: string, tx: string, cents: number) =>
    ({ store_id: shop.id, dt: `2026-03-10 ${time}`, name: 'purchase', session_id: session, visitor_id: visitor, transaction_id: tx, transaction_gross_revenue: cents });
  await insertRows(t.stores, 'conversions', [buy(12, 1, '11:05:00', 'T-1', 10_000), buy(21, 2, '10:05:00', 'T-2', 5_000), buy(31, 3, '10:35:00', 'T-3', 3_000)]);
  await createUser(t, 'owen@example.com', shop.id);
  await createUser(t, 'vic@example.com', shop.id, ['--role', 'viewer']);
  await createUser(t, 'mia@example.com', shop.id, ['--role', 'viewer', '--scopes', 'read:meta']);
  for (const name of ['owen', 'vic', 'mia']) as[name] = await signIn(t, `${name}@example.com`);
  const { survey } = await toolOk(t.app, shop.headers, 'surveys.create', {
    title: 'After your order',
    questions: [
      { text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Google', 'Friend or family', 'Podcast'] },
      { text: 'Rate us', type: 'rating' },
      { text: 'Anything else?', type: 'text' },
    ],
  });
  surveyId = survey.id;
});
after(() => t.close());

async function post(tx: string, heard: string, rating?: number) {
  const answers = [{ question: 0, value: heard }, ...(rating ? [{ question: 1, value: rating }] : [])];
  const response = await t.app.inject({
    method: 'POST', url: '/collect/survey', headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_UA },
    payload: JSON.stringify({ pixel_id: shop.pixelId, survey_id: surveyId, transaction_id: tx, answers }),
  });
  assert.equal(response.statusCode, 202, response.body);
}

const surveysUrl = `/dashboard/api/surveys?workspace=`;

test('owners publish and close from the dashboard; viewers and writes without the CSRF token are refused', async () => {
  const url = (action: string) => `/dashboard/api/surveys/${surveyId}/${action}?workspace=${shop.id}`;
  assert.deepEqual(await as.vic!.send('POST', url('publish')), { status: 403, body: { message: 'Only owners of this workspace can do this' } });
  const noCsrf = await t.app.inject({ method: 'POST', url: url('publish'), headers: { cookie: as.owen!.cookie } });
  assert.deepEqual([noCsrf.statusCode, noCsrf.json()], [403, { message: 'Missing or wrong CSRF token' }]);
  const published = await as.owen!.send('POST', url('publish'));
  assert.equal(published.status, 200);
  assert.deepEqual({ ...published.body.survey, created_at: '', updated_at: '' }, {
    id: surveyId, title: 'After your order', status: 'live', created_at: '', updated_at: '',
    questions: [
      { text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Google', 'Friend or family', 'Podcast'] },
      { text: 'Rate us', type: 'rating' },
      { text: 'Anything else?', type: 'text' },
    ],
  });
  const audit = await toolOk(t.app, shop.headers, 'audit-log.get-log', {});
  assert.deepEqual(audit.entries.slice(0, 1).map((e: any) => [e.actor, e.action, e.target]), [['dashboard:owen@example.com', 'survey.publish', `survey:${surveyId}`]]);

  await post('T-1', 'Instagram', 5);
  await post('T-2', 'Instagram', 4);
  await post('T-3', 'Friend or family', 4);
  await post('T-4', 'Podcast');
  const listed = await eventually(() => as.vic!.get(`${surveysUrl}${shop.id}`), (r) => r.body.surveys?.[0]?.responses === 4);
  assert.deepEqual(listed.body.surveys.map((s: any) => [s.id, s.status, s.responses]), [[surveyId, 'live', 4]]);
});

test('self-reported vs pixel: each answer beside the source the attribution credits for the same orders', async () => {
  const sources = (who: string, query = '') => as[who]!.get(`/dashboard/api/surveys/${surveyId}/sources?workspace=${shop.id}&${RANGE}${query}`);
  const answers = [
    { answer: 'Friend or family', responses: 1, matched: 1 },
    { answer: 'Instagram', responses: 2, matched: 2 },
    { answer: 'Podcast', responses: 1, matched: 0 },
  ];
  const lastClick = await sources('owen');
  assert.deepEqual(lastClick, {
    status: 200,
    body: {
      question: 0,
      question_text: 'How did you hear about us?',
      rows: [
        { answer: 'Friend or family', source: 'organic', orders: 1, revenue: 30, share: 1 },
        { answer: 'Instagram', source: 'meta', orders: 1, revenue: 100, share: 0.5 },
        { answer: 'Instagram', source: 'google', orders: 1, revenue: 50, share: 0.5 },
      ],
      answers,
      attribution_model: 'last_click',
      attribution_window: 7,
      exclude_source: [],
      start_date: '2026-03-10T00:00:00.000Z',
      end_date: '2026-03-10T23:59:59.999Z',
    },
  });
  // Linear: T-1's two sessions share its credit.
  const linear = await sources('owen', '&attribution_model=linear');
  assert.deepEqual(linear.body.rows, [
    { answer: 'Friend or family', source: 'organic', orders: 1, revenue: 30, share: 1 },
    { answer: 'Instagram', source: 'google', orders: 1.5, revenue: 100, share: 0.75 },
    { answer: 'Instagram', source: 'meta', orders: 0.5, revenue: 50, share: 0.25 },
  ]);
  // The Markov model shares each order too: every matched order is counted once over its sources.
  const learned = await sources('owen', '&attribution_model=markov');
  assert.equal(learned.status, 200, JSON.stringify(learned.body));
  const counted = (answer: string) => learned.body.rows.filter((r: any) => r.answer === answer).reduce((sum: number, r: any) => sum + r.orders, 0);
  assert.deepEqual([counted('Instagram'), counted('Friend or family'), counted('Podcast')].map((n) => Math.round(n * 1e9) / 1e9), [2, 1, 0]);
  // A viewer who reads Meta only does not see the credits of other channels (organic included),
  // nor the counts of all responses: only the answers of the orders credited to Meta, uncounted.
  const mia = await sources('mia', '&attribution_model=linear');
  assert.deepEqual([mia.body.rows, mia.body.answers], [
    [{ answer: 'Instagram', source: 'meta', orders: 0.5, revenue: 50, share: null }],
    [{ answer: 'Instagram', responses: null, matched: null }],
  ]);
  // The rating question, grouped by its values.
  const ratings = await sources('vic', '&question=1');
  assert.deepEqual([ratings.body.question, ratings.body.rows, ratings.body.answers], [
    1,
    [
      { answer: '4', source: 'google', orders: 1, revenue: 50, share: 0.5 },
      { answer: '4', source: 'organic', orders: 1, revenue: 30, share: 0.5 },
      { answer: '5', source: 'meta', orders: 1, revenue: 100, share: 1 },
    ],
    [{ answer: '4', responses: 2, matched: 2 }, { answer: '5', responses: 1, matched: 1 }],
  ]);
  // A range without those orders matches none of them.
  const before = await as.owen!.get(`/dashboard/api/surveys/${surveyId}/sources?workspace=${shop.id}&start_date=2026-03-01&end_date=2026-03-09`);
  assert.deepEqual([before.body.rows, before.body.answers.map((a: any) => a.matched)], [[], [0, 0, 0]]);
});

test('surveys.get-attribution-agreement: the same matrix through the tool endpoint, under the workspace\'s attribution', async () => {
  const agreement = (headers: Record<string, string>, args: object) => toolOk(t.app, headers, 'surveys.get-attribution-agreement', { survey_id: surveyId, date_from: '2026-03-10', date_to: '2026-03-10', ...args });
  // Last click (the workspace default): T-1 to meta (its Instagram session), T-2 to google, T-3 organic.
  // Instagram was answered on 2 matched orders: meta got 1 of them (share 0.5), google 1.
  const { agreement: lastClick } = await agreement(shop.headers, {});
  assert.deepEqual(lastClick, {
    date_from: '2026-03-10', date_to: '2026-03-10', timezone: 'UTC',
    attribution: { model: 'last_click', window: 7, date_mode: 'conversion', ignore_sources: [] },
    question: 0,
    question_text: 'How did you hear about us?',
    rows: [
      { answer: 'Friend or family', source: 'organic', orders: 1, revenue: 30, share: 1 },
      { answer: 'Instagram', source: 'meta', orders: 1, revenue: 100, share: 0.5 },
      { answer: 'Instagram', source: 'google', orders: 1, revenue: 50, share: 0.5 },
    ],
    answers: [
      { answer: 'Friend or family', responses: 1, matched: 1 },
      { answer: 'Instagram', responses: 2, matched: 2 },
      { answer: 'Podcast', responses: 1, matched: 0 },
    ],
  });
  // The dashboard's endpoint gives the same cells.
  const dashboard = await as.owen!.get(`/dashboard/api/surveys/${surveyId}/sources?workspace=${shop.id}&${RANGE}`);
  assert.deepEqual(dashboard.body.rows, lastClick.rows);
  // The workspace's model is the one used: linear splits T-1 over google and meta.
  await updateSettings(t.stores.db, shop.id, { attribution_model: 'linear' });
  try {
    const { agreement: linear } = await agreement(shop.headers, {});
    assert.equal(linear.attribution.model, 'linear');
    assert.deepEqual(linear.rows.filter((r: any) => r.answer === 'Instagram').map((r: any) => [r.source, r.orders, r.share]), [['google', 1.5, 0.75], ['meta', 0.5, 0.25]]);
  } finally {
    await updateSettings(t.stores.db, shop.id, { attribution_model: 'last_click' });
  }
  // A key that reads Meta only sees Meta's credits; the rating question groups by its values.
  const { agreement: metaOnly } = await agreement(await shop.keyHeaders(['read:meta']), { question: 1 });
  // A key of some channels sees the credits to them, but no share or count of the answers: those
  // are order-level figures of the whole store.
  assert.deepEqual([metaOnly.rows, metaOnly.answers], [
    [{ answer: '5', source: 'meta', orders: 1, revenue: 100, share: null }],
    [{ answer: '5', responses: null, matched: null }],
  ]);
  const refused = await callTool(t.app, shop.headers, 'surveys.get-attribution-agreement', { survey_id: surveyId, question: 2 });
  assert.deepEqual(refused.error, { code: -32602, message: 'Invalid arguments: question 2 is a text question: its answers are not grouped' });
});

test('the view refuses questions it cannot group, unknown parameters and other workspaces\' surveys', async () => {
  const get = (query: string, id = surveyId) => as.owen!.get(`/dashboard/api/surveys/${id}/sources?workspace=${shop.id}&${query}`);
  assert.deepEqual(await get('question=2'), { status: 400, body: { message: 'question 2 is a text question: its answers are not grouped' } });
  assert.deepEqual(await get('question=7'), { status: 400, body: { message: `question: survey ${surveyId} has questions 0 to 2` } });
  assert.deepEqual(await get('question=x'), { status: 400, body: { message: 'question must be a question index' } });
  assert.deepEqual(await get('questoin=1'), { status: 400, body: { message: 'Unknown parameter: questoin. Did you mean question?' } });
  assert.deepEqual(await get('', '999'), { status: 404, body: { message: 'Survey 999 not found' } });
  assert.deepEqual(await get('', 'abc'), { status: 400, body: { message: 'Survey id must be numeric' } });
});

test('responses and their counts are order-level: a viewer narrowed to some channels reads neither (403, null)', async () => {
  const listed = await as.mia!.get(`${surveysUrl}${shop.id}`);
  assert.deepEqual(listed.body.surveys.map((s: any) => [s.id, s.responses]), [[surveyId, null]]);
  assert.deepEqual(await as.mia!.get(`/dashboard/api/surveys/${surveyId}/responses?workspace=${shop.id}`), {
    status: 403,
    body: { message: 'You do not have access to survey responses: they need access to every channel' },
  });
});

test('responses come a page at a time, oldest first', async () => {
  const page = await as.vic!.get(`/dashboard/api/surveys/${surveyId}/responses?workspace=${shop.id}&limit=3`);
  assert.equal(page.status, 200);
  assert.deepEqual([page.body.responses.map((r: any) => r.transaction_id), page.body.has_more], [['T-1', 'T-2', 'T-3'], true]);
  const next = await as.vic!.get(`/dashboard/api/surveys/${surveyId}/responses?workspace=${shop.id}&limit=3&offset=3`);
  assert.deepEqual(next.body.responses.map((r: any) => [r.transaction_id, r.answers]), [['T-4', [{ question: 0, value: 'Podcast' }]]]);
  assert.equal(next.body.has_more, false);
  const closed = await as.owen!.send('POST', `/dashboard/api/surveys/${surveyId}/close?workspace=${shop.id}`);
  assert.equal(closed.body.survey.status, 'closed');
});

test('the sources table reads the workspace\'s days: its zone for given dates, the last 7 complete days without any', async () => {
  await updateSettings(t.stores.db, shop.id, { timezone: 'America/New_York' });
  try {
    const dated = await as.owen!.get(`/dashboard/api/surveys/${surveyId}/sources?workspace=${shop.id}&${RANGE}`);
    assert.deepEqual([dated.body.start_date, dated.body.end_date], ['2026-03-10T04:00:00.000Z', '2026-03-11T03:59:59.999Z']);
    assert.equal(dated.body.answers.reduce((n: number, a: { matched: number }) => n + a.matched, 0), 3, 'the three orders fall on the 10th in New York too');
    const undated = await as.owen!.get(`/dashboard/api/surveys/${surveyId}/sources?workspace=${shop.id}`);
    const day = (n: number) => {
      const parts: Record<string, string> = {};
      for (const p of new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(Date.now())) parts[p.type] = p.value;
      return new Date(Date.parse(`${parts.year}-${parts.month}-${parts.day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    };
    const localDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(iso));
    assert.deepEqual([localDay(undated.body.start_date), localDay(undated.body.end_date)], [day(-7), day(-1)], 'the view\'s "Last 7 days", today left out');
  } finally {
    await updateSettings(t.stores.db, shop.id, { timezone: 'UTC' });
  }
});
