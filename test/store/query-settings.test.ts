/**
 * A read's own engine settings (`Clickhouse.query`'s `settings`, the report's
 * optimize_move_to_prewhere) reach the engine for that statement alone, on either transport:
 * `npm run test:server` runs this file on the server one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestClickhouse } from '../helper.ts';

test('a statement runs with its own settings, and the next one without them', async () => {
  const { ch, close } = await openTestClickhouse();
  try {
    const sql = "SELECT getSetting('optimize_move_to_prewhere') AS moved, getSetting('prefer_column_name_to_alias') AS names";
    assert.deepEqual(await ch.query('settings', sql, {}, { settings: { optimize_move_to_prewhere: 0 } }), [{ moved: false, names: true }]);
    // Every pooled session, not only the one that ran it, reads with the defaults again.
    const after = await Promise.all([1, 2, 3].map(() => ch.query('settings', sql)));
    assert.deepEqual(after, [1, 2, 3].map(() => [{ moved: true, names: true }]));
  } finally {
    await close();
  }
});
