import { z } from 'zod';
import { timeZoneName } from '../../kit/calendar/zones.ts';
import { CONVERSION_NAME_PATTERN } from '../../kit/conversion-name.ts';
import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS } from '../../kit/vocabulary.ts';

/** Workspace settings (docs/attribution.md, "Workspace settings"); every switch is off by default. */
export const workspaceSettingsSchema = z
  .object({
    include_unattributed: z.boolean().default(false),
    net_merchandise_revenue: z.boolean().default(false),
    refund_netting: z.boolean().default(false),
    excluded_transaction_ids: z.array(z.string()).default([]),
    platform_revenue: z.enum(['pixel', 'platform']).default('pixel'),
    new_customer_correction: z.boolean().default(false),
    attribution_model: z.enum(ATTRIBUTION_MODELS).default('last_click'),
    attribution_window: z
      .number()
      .int()
      .refine((w) => (ATTRIBUTION_WINDOWS as readonly number[]).includes(w), {
        message: `attribution_window must be one of ${ATTRIBUTION_WINDOWS.join(', ')}`,
      })
      .default(7),
    attribution_date: z.enum(ATTRIBUTION_DATES).default('conversion'),
    ignore_sources: z.array(z.string()).default([]),
    payment_fee_percent: z.number().min(0).max(100).default(0),
    payment_fee_fixed: z.number().int().min(0).default(0),
    currency: z.string().regex(/^[A-Z]{3}$/).default('USD'),
    /** Stored in the zone's canonical spelling, so the analytics store (case-sensitive) knows it. */
    timezone: timeZoneName.default('UTC'),
    /** The conversion names reports count when a request names none; `*` matches any run of characters. */
    conversion_names: z.array(z.string()).default(['*']),
  })
  .strict();

export type WorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;

export const DEFAULT_SETTINGS: WorkspaceSettings = workspaceSettingsSchema.parse({});

/** Bounds of what a change may store (docs/security.md, "Settings and stored lists"). */
export const SETTING_BOUNDS = {
  excludedTransactionIds: 100_000,
  transactionIdLength: 200,
  ignoredSources: 50,
  sourceNameLength: 40,
  paymentFeeFixedCents: 1_000_000,
  conversionNames: 20,
} as const;

/** Bytes a whole change may take as JSON: the largest list of plain ids with room to spare. */
export const SETTINGS_BODY_LIMIT = 24 * 1024 * 1024;

const b = SETTING_BOUNDS;

type Shape = typeof workspaceSettingsSchema.shape;

/** Every field a change may name, without its default: a change leaves out what it does not change. */
const changeFields = Object.fromEntries(
  Object.entries(workspaceSettingsSchema.shape).map(([name, field]) => [name, field.unwrap().optional()]),
) as { [K in keyof Shape]: z.ZodOptional<ReturnType<Shape[K]['unwrap']>> };

/**
 * A list checked as a whole: its length, then every item at once, so that a list of 100,000 bad
 * items is one message rather than one per item. Stored without repeats, in the order given.
 */
function boundedList(max: number, items: string, ok: (item: string) => boolean, itemMessage: string) {
  return z
    .array(z.unknown(), { error: `must be a list of ${items}` })
    .max(max, { error: `at most ${max} ${items}` })
    .refine((list) => list.every((item) => typeof item === 'string' && ok(item)), { error: itemMessage })
    .transform((list) => [...new Set(list as string[])]);
}

/**
 * A change of settings as the CLI, the dashboard and the server's own start-up write it: the
 * stored fields, each bounded (stored settings are read without these bounds, so a value stored
 * before a bound existed never breaks a workspace's reports). Lists are checked as a whole, so
 * 100,000 bad ids are one message, not 100,000.
 */
export const settingChangesSchema = z
  .strictObject({
    ...changeFields,
    excluded_transaction_ids: boundedList(
      b.excludedTransactionIds,
      'ids',
      (id) => id.length >= 1 && id.length <= b.transactionIdLength,
      `each id must be a string of 1 to ${b.transactionIdLength} characters`,
    ).optional(),
    ignore_sources: boundedList(
      b.ignoredSources,
      'sources',
      (source) => source.length <= b.sourceNameLength,
      `each source must be a string of at most ${b.sourceNameLength} characters`,
    ).optional(),
    conversion_names: z.preprocess(
      (value) => (typeof value === 'string' ? value.split(',').map((name) => name.trim()).filter(Boolean) : value),
      boundedList(
        b.conversionNames,
        'names',
        (name) => CONVERSION_NAME_PATTERN.test(name),
        'each name must be 1-64 letters, digits or _ . : - with * matching any run of characters',
      ).refine((names) => names.length > 0, { error: 'at least one name (* counts every name)' }),
    ).optional(),
    payment_fee_fixed: z
      .number()
      .int({ error: 'must be a whole number of cents' })
      .min(0, { error: 'must not be negative' })
      .max(b.paymentFeeFixedCents, { error: `at most ${b.paymentFeeFixedCents} cents` })
      .optional(),
  }, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return `Unknown setting: ${issue.keys.join(', ')}. Known settings: ${Object.keys(changeFields).join(', ')}`;
      return issue.code === 'invalid_type' ? 'Settings must be an object of setting names and values' : undefined;
    },
  });

export type SettingChanges = z.output<typeof settingChangesSchema>;

/** Turns a `key=value` string from the command line into a typed settings value. */
export function parseSettingValue(key: string, raw: string): unknown {
  const shape = workspaceSettingsSchema.shape as Record<string, z.ZodType>;
  const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
  if (!field) throw new Error(`Unknown setting: ${key}. Known settings: ${Object.keys(shape).join(', ')}`);
  const fallback = (DEFAULT_SETTINGS as Record<string, unknown>)[key];
  if (typeof fallback === 'boolean') {
    if (['true', '1', 'on', 'yes'].includes(raw)) return true;
    if (['false', '0', 'off', 'no'].includes(raw)) return false;
    return raw;
  }
  if (typeof fallback === 'number') return raw.trim() === '' ? raw : Number(raw);
  if (Array.isArray(fallback)) return raw.split(',').map((v) => v.trim()).filter(Boolean);
  return raw;
}
