/**
 * Analytics migration 22: `sessions` partitioned by workspace and month. On a store migrated up
 * to 21 that already holds events of two workspaces, partly folded and partly not, the sessions
 * read the same after the migration; afterwards a flush of both workspaces writes a part per
 * workspace, and its events still reach the sessions through the view.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrateAnalytics } from '../../src/store/analytics-schema.ts';
import { migrateAnalyticsBefore, openTestClickhouse } from '../helper.ts';
import type { Clickhouse } from '../../src/store/clickhouse.ts';

let store: Awaited<ReturnType<typeof openTestClickhouse>>;
let ch: Clickhouse;

const event = (store_id: number, session_id: string, dt: string, name: string, pathname: string) =>
  JSON.stringify({ store_id, session_id, visitor_id: 7, dt, name, pathname, adv_source: 'google', adv_campaign_id: `c-${store_id}` });

const sessions = () => ch.query('test-sessions', `
  SELECT store_id, month, session_id, events, pageviews, add_to_carts, tupleElement(landing, 'adv_campaign_id') AS campaign, tupleElement(exit_page, 'pathname') AS exit
  FROM sessions FINAL ORDER BY store_id, session_id`); // tuple fields by tupleElement: see session-sql.ts

const partitions = () => ch.query<{ partition: string; parts: number }>('test-partitions', `
  SELECT partition, toUInt32(count()) AS parts FROM system.parts
  WHERE database = currentDatabase() AND table = 'sessions' AND active GROUP BY partition ORDER BY partition`);

before(async () => {
  store = await openTestClickhouse();
  ch = store.ch;
  await migrateAnalyticsBefore(ch, 22);
  // Two flushes: one session of workspace 1 spread over both (two partial rows), a session of
  // workspace 2 in May and one in June.
  await ch.insertNdjson('events', [
    event(1, '11', '2026-05-04 10:00:00', 'pageview', '/in'),
    event(2, '21', '2026-05-30 09:00:00', 'pageview', '/two'),
  ].join('\n'));
  await ch.insertNdjson('events', [
    event(1, '11', '2026-05-04 10:03:00', 'add_to_cart', '/cart'),
    event(2, '22', '2026-06-02 12:00:00', 'pageview', '/june'),
  ].join('\n'));
});

after(() => store.close());

test('stored sessions read the same after the move, and each part holds one workspace', async () => {
  const before = await sessions();
  assert.equal(before.length, 3);
  assert.deepEqual((await partitions()).map((p) => p.partition), ['2026-05-01', '2026-06-01']);

  await migrateAnalytics(ch);

  assert.deepEqual(await sessions(), before);
  assert.deepEqual((await partitions()).map((p) => p.partition), ["(1,'2026-05-01')", "(2,'2026-05-01')", "(2,'2026-06-01')"]);
  const [table] = await ch.query<{ partition_key: string; sorting_key: string }>('test-keys', `
    SELECT partition_key, sorting_key FROM system.tables WHERE database = currentDatabase() AND name = 'sessions'`);
  assert.deepEqual(table, { partition_key: '(store_id, month)', sorting_key: 'store_id, session_id' });
});

test('a flush of two workspaces writes a part per workspace, and the view still folds it into the sessions', async () => {
  await ch.insertNdjson('events', [
    event(1, '11', '2026-05-04 10:09:00', 'pageview', '/again'),
    event(2, '23', '2026-05-31 23:00:00', 'pageview', '/late'),
  ].join('\n'));
  assert.deepEqual(await partitions(), [
    { partition: "(1,'2026-05-01')", parts: 2 },
    { partition: "(2,'2026-05-01')", parts: 2 },
    { partition: "(2,'2026-06-01')", parts: 1 },
  ]);
  const rows = await sessions() as { store_id: number; session_id: number; events: number; exit: string }[];
  assert.deepEqual(rows.map((r) => [r.store_id, r.session_id, r.events, r.exit]), [
    [1, 11, 3, '/again'],
    [2, 21, 1, '/two'],
    [2, 22, 1, '/june'],
    [2, 23, 1, '/late'],
  ]);
});

test('one insert may reach more than a hundred partitions: a bulk load of ten years of one workspace', async () => {
  const months = Array.from({ length: 120 }, (_, i) => new Date(Date.UTC(2010, i, 15)).toISOString().slice(0, 10));
  await ch.insertNdjson('events', months.map((day, i) => event(3, String(1000 + i), `${day} 12:00:00`, 'pageview', '/')).join('\n'));
  const [row] = await ch.query<{ partitions: number; sessions: number }>('test-bulk', `
    SELECT toUInt32(uniqExact(month)) AS partitions, toUInt32(count()) AS sessions FROM sessions FINAL WHERE store_id = 3`);
  assert.deepEqual(row, { partitions: 120, sessions: 120 });
});
