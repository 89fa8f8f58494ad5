/**
 * The daily weather of the demo shop's city as a weather service's CSV download would give it,
 * which the demo imports through the same code as `import --kind weather`. Each day's values come
 * from the date alone (its own seeded draw), so a day has the same weather in a demo of any length.
 */
import { STORE_PLACE } from './catalog.ts';
import { isoDate } from './generate.ts';
import { Random } from './random.ts';

const DAY_MS = 86_400_000;
const HEADER = 'dt,country_code,city,temperature_c,precipitation_mm,condition';

/** A temperate city's year: coldest around 20 January, warmest six months later (°C). */
const MEAN_C = 12.5;
const SWING_C = 11.5;
const COLDEST_DAY_OF_YEAR = 20;

function dayOfYear(ms: number): number {
  return Math.floor((ms - Date.UTC(new Date(ms).getUTCFullYear(), 0, 1)) / DAY_MS);
}

function weatherOf(ms: number, seed: number): { temperature: number; precipitation: number; condition: string } {
  const r = new Random(seed + ms / DAY_MS);
  const season = -Math.cos((2 * Math.PI * (dayOfYear(ms) - COLDEST_DAY_OF_YEAR)) / 365);
  const temperature = Math.round((MEAN_C + SWING_C * season + (r.next() - 0.5) * 8) * 10) / 10;
  if (!r.chance(0.32)) return { temperature, precipitation: 0, condition: r.chance(0.6) ? 'clear' : 'cloudy' };
  // Wet days: mostly light, now and then a downpour.
  const precipitation = Math.max(0.2, Math.round(-Math.log(1 - r.next()) * 7 * 10) / 10);
  return { temperature, precipitation, condition: temperature <= 0 ? 'snow' : 'rain' };
}

/** One row per UTC day from `first` to `last` (day starts in ms), as CSV text. */
export function weatherCsv(first: number, last: number, seed: number): string {
  const lines = [HEADER];
  for (let ms = first; ms <= last; ms += DAY_MS) {
    const w = weatherOf(ms, seed);
    lines.push([isoDate(ms), STORE_PLACE.country, STORE_PLACE.city, w.temperature, w.precipitation, w.condition].join(','));
  }
  return `${lines.join('\n')}\n`;
}
