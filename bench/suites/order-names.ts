/**
 * Matching pixel conversions to platform orders by id or by name (docs/integrations.md): the
 * report's orders lookup (`ORDER_IDS` of src/analytics/sales.ts) beside the same
 * lookup by id alone, paired, on its own data dir. Shape: ORDERS orders in one workspace, every
 * one with a Shopify-style name (`#N`), and as many conversions, one in three carrying the name
 * instead of the id. Reported: medians and p99 of both, and how many conversions each matched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStores } from '../../src/store/index.ts';
import { ORDER_IDS } from '../../src/analytics/sales.ts';
import { measurePaired } from '../measure.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 300_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);

const joinSql = (orderIds: string) => `
SELECT count() AS conversions, countIf(o.o_tx != '') AS matched
FROM conversions AS c
LEFT JOIN (
  SELECT o_tx, gross_revenue AS o_gross FROM orders FINAL ARRAY JOIN ${orderIds} AS o_tx WHERE store_id = 1
) AS o ON o.o_tx = c.transaction_id
WHERE c.store_id = 1`;

export async function runOrderNamesBench(log: (line: string) => void): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storelens-bench-order-names-'));
  const config = loadConfig({}, { dataDir, demo: false });
  const stores = await openStores(config, createLogger('warn'));
  try {
    await stores.ch.exec(`INSERT INTO orders (store_id, transaction_id, order_name, dt, gross_revenue, version)
      SELECT 1, toString(5940139000000 + number), concat('#', toString(1001 + number)), now64(3) - number % 86400, 10000, 1
      FROM numbers({n:UInt64})`, { n: ORDERS });
    await stores.ch.exec(`INSERT INTO conversions (store_id, dt, name, session_id, visitor_id, transaction_id, transaction_gross_revenue)
      SELECT 1, now64(3) - number % 86400, 'purchase', number + 1, number + 1,
        if(number % 3 = 0, concat('#', toString(1001 + number)), toString(5940139000000 + number)), 10000
      FROM numbers({n:UInt64})`, { n: ORDERS });
    const query = (sql: string) => stores.ch.query<{ conversions: string; matched: string }>('bench-order-names', sql);
    const { timing, last } = await measurePaired(() => query(joinSql(ORDER_IDS)), () => query(joinSql('[transaction_id]')), {
      iterations: ITERATIONS,
      warmup: 3,
    });
    const [idOnly] = await query(joinSql('[transaction_id]'));
    log(`${ORDERS} orders, all named; ${ORDERS} conversions, a third sending the name`);
    log(`| lookup | median ms | p99 ms | conversions matched |`);
    log(`|---|---|---|---|`);
    log(`| id or name (the report) | ${timing.apiMedianMs} | ${timing.apiP99Ms} | ${last[0]?.matched} |`);
    log(`| id only (baseline) | ${timing.engineMedianMs} | ${timing.engineP99Ms} | ${idOnly?.matched} |`);
    log(`ratio of medians: ${timing.ratio}`);
  } finally {
    await stores.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
