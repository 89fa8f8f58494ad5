import { z } from 'zod';
import { date, text } from '../../../collect/rows.ts';

/**
 * One daily weather observation as `import --kind weather` reads it (NDJSON or CSV):
 * `dt, country_code, city?, temperature_c, precipitation_mm?, condition?`. Numbers may be text.
 */
export const weatherRow = z.object({
  dt: date,
  country_code: z
    .string({ error: 'expected a two-letter country code' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, { error: 'expected a two-letter country code' })
    .transform((v) => v.toUpperCase()),
  city: text,
  temperature_c: z.coerce.number({ error: 'expected a number' }).min(-90).max(60),
  precipitation_mm: z.coerce.number({ error: 'expected a number' }).min(0).max(2000).default(0),
  condition: z.string().trim().toLowerCase().max(40).default(''),
});

export type WeatherRow = z.infer<typeof weatherRow>;
