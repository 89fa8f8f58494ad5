/**
 * The demo generator on its own (no stores): three fixed days around the creator rename date
 * (2026-07-23 to 2026-07-25, ending 2026-07-25 12:00 UTC). Its rows must pass the import row
 * formats (seeding skips that check; orders are Shopify orders that must map like a webhook
 * delivery), be the same for the same seed, and hang together: click ids on tagged sessions match
 * ads rows, purchases have platform orders.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { adExports } from '../../src/cli/demo/ad-exports.ts';
import { DemoGenerator, expenseRows, productRows, type DayRows } from '../../src/cli/demo/generate.ts';
import { adExportRecords, detectAdExport } from '../../src/collect/ads/export-reader.ts';
import { findImportKind } from '../../src/collect/import/kinds.ts';
import { checkRow } from '../../src/collect/import/writer.ts';
import { demoOrderRow } from '../../src/cli/demo/shopify-orders.ts';
import { AB_TEST, PLACES } from '../../src/cli/demo/catalog.ts';
import { deriveAttribution } from '../../src/collect/channel.ts';
import { readRecords } from '../../src/collect/import/sources.ts';
import { weatherCsv } from '../../src/cli/demo/weather.ts';

const DAY = 86_400_000;
const first = Date.UTC(2026, 6, 23);
const now = Date.UTC(2026, 6, 25, 12);

function generate(seed = 7): DayRows[] {
  const generator = new DemoGenerator(seed, 400);
  return [0, 1, 2].map((i) => generator.day(first + i * DAY, i, 3, now));
}

const days = generate();
const all = <K extends Exclude<keyof DayRows, 'orders'>>(kind: K) => days.flatMap((d) => d[kind]);
/** The demo's Shopify orders mapped to orders rows, as seeding does. */
const orderRows = () => days.flatMap((d) => d.orders).map((o) => demoOrderRow(o, 1));

test('every generated row passes its import row format', () => {
  const target = { workspaceId: 1, version: 1 };
  const kinds: [string, Record<string, unknown>[]][] = [
    ['events', all('events')],
    ['conversions', all('conversions')],
    ['orders', orderRows()],
    ['ads', [...all('ads'), ...all('adRevisions')]],
    ['products', productRows()],
    ['expenses', expenseRows('2026-07-01', '2026-07-25')],
  ];
  for (const [kind, rows] of kinds) {
    assert.ok(rows.length > 0, kind);
    const problems = rows.map((row) => checkRow(findImportKind(kind)!, target, row)).filter((c) => 'error' in c);
    assert.deepEqual(problems, [], kind);
  }
});

test('the same seed gives the same rows', () => {
  assert.deepEqual(generate(), days);
  assert.notDeepEqual(generate(8)[0]!.events.slice(0, 5), days[0]!.events.slice(0, 5));
});

test('covers every channel, with creator traffic stored as influencer before 2026-07-24', () => {
  const channels = (rows: Record<string, unknown>[]) => [...new Set(rows.map((e) => e.adv_source as string))].sort();
  const expected = ['', 'bing', 'email', 'facebook', 'google', 'instagram', 'microsoft', 'tiktok'];
  assert.deepEqual(channels(days[0]!.events), [...expected, 'influencer'].sort());
  assert.deepEqual(channels(days[1]!.events), [...expected, 'creator'].sort());
  const lastEvent = all('events').map((e) => e.dt as string).sort().at(-1)!;
  assert.ok(lastEvent < '2026-07-25 12:00:00.000', 'nothing after "now"');
});

test('every session has a city of its visitor\'s country, the same on all its events and its conversions', () => {
  const citiesOf = new Map<string, Set<string>>();
  for (const [place] of PLACES) for (const city of place.cities) citiesOf.set(place.country, new Set([...(citiesOf.get(place.country) ?? []), city]));
  const sessions = new Map<string, string>();
  for (const event of all('events')) {
    assert.ok(citiesOf.get(String(event.country_code))?.has(String(event.city)), `${event.city} in ${event.country_code}`);
    assert.equal(sessions.get(String(event.session_id)) ?? event.city, event.city);
    sessions.set(String(event.session_id), String(event.city));
  }
  for (const conversion of all('conversions')) assert.equal(conversion.transaction_city, sessions.get(String(conversion.session_id)) ?? conversion.transaction_city);
  assert.ok(new Set(sessions.values()).size > 10);
});

test('tagged sessions carry ids of ads that have ads rows; click ids sit in entry_meta', () => {
  const adIds = new Set(all('ads').map((a) => `${a.campaign_id}/${a.adgroup_id}/${a.ad_id}`));
  const tagged = all('events').filter((e) => e.adv_ad_id !== '');
  assert.ok(tagged.length > 0);
  for (const event of tagged) assert.ok(adIds.has(`${event.adv_campaign_id}/${event.adv_adgroup_id}/${event.adv_ad_id}`));
  const keys = new Set(all('events').flatMap((e) => e.entry_meta_keys as string[]));
  for (const key of ['fbclid', 'gclid', 'ttclid', 'msclkid', 'ref']) assert.ok(keys.has(key), key);
  assert.deepEqual([...new Set(all('ads').map((a) => a.source))].sort(), ['bing', 'google', 'meta', 'microsoft', 'tiktok']);
  assert.ok(all('adRevisions').length > 0, 'some ads rows are imported twice');
});

test('the sessions landing on the home page carry the A/B test and a variant as the collector keeps a landing URL\'s tags', () => {
  const landings = new Map<unknown, Record<string, unknown>>();
  for (const event of all('events')) if (!landings.has(event.session_id)) landings.set(event.session_id, event);
  const variants = new Map<string, number>();
  for (const landing of landings.values()) {
    const keys = landing.entry_meta_keys as string[];
    const values = landing.entry_meta_values as string[];
    assert.equal(keys.includes('ab_test'), landing.pathname === '/', `session ${landing.session_id} on ${landing.pathname}: ${keys}`);
    // The landing URL's query, tags first: the collector keeps them after any click id all the same.
    const query = new URLSearchParams(keys.map((key, i) => [key, values[i]!]).reverse());
    const kept = deriveAttribution(query);
    assert.deepEqual([kept.entry_meta_keys, kept.entry_meta_values], [keys, values]);
    if (!keys.includes('ab_test')) continue;
    assert.equal(values[keys.indexOf('ab_test')], AB_TEST.id);
    const variant = values[keys.indexOf('ab_variant')]!;
    variants.set(variant, (variants.get(variant) ?? 0) + 1);
  }
  assert.deepEqual([...variants.keys()].sort(), [AB_TEST.control, AB_TEST.variant]);
  for (const count of variants.values()) assert.ok(count > 50, JSON.stringify([...variants]));
  // Every event of a session has its landing's entry parameters.
  for (const event of all('events')) assert.deepEqual(event.entry_meta_values, landings.get(event.session_id)!.entry_meta_values);
});

test('every purchase has a platform order; some orders have no pixel match', () => {
  const purchases = all('conversions').filter((c) => c.name === 'purchase');
  const orders = new Map(orderRows().map((o) => [o.transaction_id, o]));
  assert.ok(purchases.length > 0);
  for (const p of purchases) assert.equal(orders.get(p.transaction_id as string)?.gross_revenue, p.transaction_gross_revenue);
  const matched = new Set(purchases.map((p) => p.transaction_id as string));
  assert.ok([...orders.keys()].some((id) => !matched.has(id)));
  const names = new Set(all('conversions').map((c) => c.name));
  assert.ok(names.has('lead'));
});

test('the ads rows written as the platforms’ exports read back as the same rows (bing reports through Microsoft)', async () => {
  const rows = [...all('ads'), ...all('adRevisions')];
  const exported = adExports(rows, 'USD', 'ads');
  assert.deepEqual(exported.map((e) => e.format), ['meta', 'google', 'tiktok', 'microsoft']);
  const read: Record<string, unknown>[] = [];
  for (const file of exported) {
    assert.equal(await detectAdExport(Readable.from([file.text])), file.format);
    for await (const record of adExportRecords(Readable.from([file.text]), { format: file.format, currency: 'USD', now })) {
      assert.ok('value' in record, JSON.stringify(record));
      read.push(record.value);
    }
  }
  const key = (row: Record<string, unknown>) => JSON.stringify(row);
  const expected = rows.map((row) => ({ ...row, source: row.source === 'bing' ? 'microsoft' : row.source }));
  assert.deepEqual(read.map(key).sort(), expected.map(key).sort());
  assert.match(exported[1]!.text, /^Ad report\r\n"July 23, 2026 - July 25, 2026"\r\nDay,Customer ID,/);
  assert.match(exported[1]!.text, /\r\nTotal: Account,--,/);
});

test('orders are Shopify orders: numeric ids, `#N` names, COGS from the variants of the products rows', () => {
  const rows = orderRows();
  const costs = new Map(productRows().map((p) => [p.variant_id as string, p.cost as number]));
  for (const [i, demo] of days.flatMap((d) => d.orders).entries()) {
    const row = rows[i]!;
    assert.match(row.transaction_id, /^\d{13}$/);
    assert.equal(row.order_name, `#${(demo.order as { order_number: number }).order_number}`);
    const lines = (demo.order as { line_items: { variant_id: number; quantity: number }[] }).line_items;
    assert.equal(row.cogs, lines.reduce((sum, l) => sum + l.quantity * costs.get(String(l.variant_id))!, 0));
  }
});

test("the demo's weather file passes the weather import, one row a day for the shop's city, warmer in July than in January, the same day alike in any demo", async () => {
  const rowsOf = async (firstMs: number, lastMs: number) => {
    const rows: Record<string, unknown>[] = [];
    for await (const record of readRecords({ name: 'weather.csv', text: weatherCsv(firstMs, lastMs, 7) })) {
      assert.ok('value' in record, JSON.stringify(record));
      const checked = checkRow(findImportKind('weather')!, { workspaceId: 1, version: 1 }, record.value);
      assert.ok('row' in checked, JSON.stringify(checked));
      rows.push(checked.row);
    }
    return rows;
  };
  const year = await rowsOf(Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 31));
  assert.equal(year.length, 365);
  assert.deepEqual([...new Set(year.map((r) => `${r.city}, ${r.country_code}`))], ['New York, US']);
  const mean = (month: string) => {
    const days = year.filter((r) => String(r.dt).slice(5, 7) === month);
    return days.reduce((sum, r) => sum + (r.temperature_c as number), 0) / days.length;
  };
  assert.ok(mean('07') > mean('01') + 15, `${mean('07')} against ${mean('01')}`);
  assert.ok(year.some((r) => (r.precipitation_mm as number) > 0) && year.some((r) => r.precipitation_mm === 0));
  assert.deepEqual(await rowsOf(Date.UTC(2026, 6, 23), Date.UTC(2026, 6, 25)), year.slice(203, 206));
});
