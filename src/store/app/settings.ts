import { z } from 'zod';
import { timeZoneName } from '../../kit/time-zone.ts';

export const ATTRIBUTION_MODELS = ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact', 'any_click', 'data_driven'] as const;
export const ATTRIBUTION_WINDOWS = [1, 7, 28, 90, 180, 365] as const;
export const ATTRIBUTION_DATES = ['conversion', 'click'] as const;

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
  })
  .strict();

export type WorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;

export const DEFAULT_SETTINGS: WorkspaceSettings = workspaceSettingsSchema.parse({});

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
