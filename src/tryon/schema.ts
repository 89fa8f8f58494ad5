import { z } from 'zod';

/** `workspace_id` as a JSON number or a digit string (query strings carry strings). */
export const workspaceId = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().positive());

const text = (name: string, max = 200) => z.string({ error: `${name} must be a string` }).min(1, `${name} is required`).max(max);
const flag = z.boolean().optional();

export const uploadRequest = z.object({
  workspace_id: workspaceId,
  consent: flag,
  adult: flag,
  consent_version: z.string().optional(),
  bytes: z.unknown(),
  mime_type: z.unknown(),
  checksum_sha256: z.unknown(),
});

export const jobRequest = z.object({
  workspace_id: workspaceId,
  job_id: text('job_id', 100),
  upload_key: text('upload_key', 100),
  product_handle: text('product_handle'),
  variant_id: text('variant_id'),
  consent: flag,
  consent_version: z.string().optional(),
  experiment_id: z.string().optional(),
  variant_index: z.number().int().min(0).optional(),
});

export const leadRequest = z.object({
  workspace_id: workspaceId,
  email: z.email({ error: 'email must be a valid e-mail address' }).max(254),
  marketing_consent: flag,
  marketing_version: z.string().optional(),
});

export const workspaceQuery = z.object({ workspace_id: workspaceId });
