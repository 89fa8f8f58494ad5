/** Shared by the collection tests: payloads, wire timestamps and waiting for the batch writer. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/** `YYYY-MM-DD HH:MM:SS` UTC, the wire form of a timestamp. */
export function wireTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** A date range (yesterday..today, UTC) that holds anything collected just now. */
export function todayRange(now = Date.now()): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `start_date=${day(now - 86_400_000)}&end_date=${day(now)}`;
}

/**
 * The minute since the Unix epoch in which a browser script began the session `id`
 * (docs/collection.md section 1): the id's bits above its 38 random ones. Fails unless the id is
 * the digits of a positive 64-bit integer, as the collector takes it.
 */
export function sessionMinute(id: unknown): number {
  assert.ok(typeof id === 'string' && /^[1-9]\d{0,19}$/.test(id), `not the digits of a positive integer: ${id}`);
  assert.ok(BigInt(id) < 2n ** 64n, `${id} is over 64 bits`);
  return Number(BigInt(id) >> 38n);
}

/** Two sessions begun `minutes` apart from `start`: each id holds its own start minute, the later one is larger. */
export function assertTimeOrderedSessions(first: string, later: string, start: number, minutes: number): void {
  assert.deepEqual([sessionMinute(first), sessionMinute(later)], [Math.floor(start / 60_000), Math.floor(start / 60_000) + minutes]);
  assert.ok(BigInt(later) > BigInt(first), `${later} after ${first}`);
}

/**
 * Polls until `check` returns a value (rows reach ClickHouse on the writer's next flush, a few
 * tens of milliseconds in these tests); fails with the last value after `timeoutMs`.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(50);
  }
}

export const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
