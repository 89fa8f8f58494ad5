/**
 * IANA time zones, through the runtime's own zone database (`Intl`): which names exist, the
 * calendar day an instant falls on in a zone, and the first instant of a zone's calendar day.
 * Days are `YYYY-MM-DD`; instants are epoch milliseconds.
 */
import { z } from 'zod';

export const UTC = 'UTC';

/** Longest zone name we look up; the longest IANA name has 32 characters. */
const MAX_NAME = 64;

/** The refusal of a name that is no zone; a name too long to be one, or no text at all, is not echoed. */
export function timeZoneMessage(value: unknown): string {
  const texts = Array.isArray(value) ? value : [value];
  const shown = texts.every((v) => typeof v === 'string') ? texts.join(',') : '(not a name)';
  return `Invalid timezone: ${shown.length > MAX_NAME ? '(too long)' : shown}. Use an IANA time zone name such as Europe/Berlin`;
}

// One formatter per zone (building one costs far more than using it); only names Intl accepted get here.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * Names found to be zones, as given, with their canonical spelling: every report reads a zone name
 * (the workspace setting, the request's `timezone`), and asking Intl costs a quarter of a
 * millisecond each time. Only accepted names are kept, at most MAX_KNOWN_NAMES spellings.
 */
const canonicalNames = new Map<string, string>();
const MAX_KNOWN_NAMES = 1000;

/**
 * The zone's name as the runtime spells it (`america/new_york` -> `America/New_York`, `US/Eastern`
 * -> `America/New_York`), or null for a name that is no IANA zone. Fixed offsets (`+02:00`) are
 * not zones: they have no daylight saving time, so a store never means one.
 */
export function canonicalTimeZone(name: string): string | null {
  const known = canonicalNames.get(name);
  if (known !== undefined) return known;
  if (name.length === 0 || name.length > MAX_NAME || !/^[A-Za-z]/.test(name)) return null;
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    formatter(zone);
    if (canonicalNames.size >= MAX_KNOWN_NAMES) canonicalNames.clear();
    canonicalNames.set(name, zone);
    return zone;
  } catch {
    return null;
  }
}

/** A zone name as input (query parameter, tool argument, setting): its canonical spelling, or the refusal. */
export const timeZoneName = z.string({ error: (issue) => timeZoneMessage(issue.input) }).transform((value, ctx) => {
  const zone = canonicalTimeZone(value);
  if (zone === null) ctx.addIssue({ code: 'custom', message: timeZoneMessage(value) });
  return zone ?? z.NEVER;
});

/** The wall-clock time of `ms` in `zone`, read as if it were UTC (its offset already added). */
function wallClock(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) + (((ms % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at `ms`, in milliseconds (New York in winter: -5 h). */
export function zoneOffset(ms: number, zone: string): number {
  return wallClock(ms, zone) - ms;
}

/** The calendar day `ms` falls on in `zone`, `YYYY-MM-DD`. */
export function localDay(ms: number, zone: string): string {
  return new Date(wallClock(ms, zone)).toISOString().slice(0, 10);
}

const HOUR_MS = 3_600_000;

/**
 * The instant a wall-clock reading of `zone` names (the reading given as if it were UTC). The
 * offsets in force half a day before and after are tried (one of them is the reading's own); a
 * reading that a daylight-saving jump skips is read with the offset before the jump, and one the
 * clocks show twice is its first occurrence.
 */
export function instantOfWallClock(wallMs: number, zone: string): number {
  const before = wallMs - zoneOffset(wallMs - 12 * HOUR_MS, zone);
  const after = wallMs - zoneOffset(wallMs + 12 * HOUR_MS, zone);
  const fits = [before, after].filter((ms) => wallClock(ms, zone) === wallMs);
  return fits.length ? Math.min(...fits) : before;
}

/**
 * The first instant of a calendar day in `zone`, given the day as midnight UTC of the same date;
 * when a daylight-saving jump skips midnight, the day starts at the jump.
 */
export function startOfLocalDay(dayUtcMs: number, zone: string): number {
  return instantOfWallClock(dayUtcMs, zone);
}
