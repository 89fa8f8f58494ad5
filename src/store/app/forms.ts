/**
 * Storefront forms (docs/families.md, "Forms"): drafted with `form create` (fields added with
 * forms.add-fields), made live with `form publish` and ended with `form close` (both also in the
 * dashboard); the collector accepts submissions to live forms only. Stored as objects of kind
 * `form`, every change audited.
 */
import { z } from 'zod';
import { Conflict, InvalidInput, NotFound } from '../../kit/errors.ts';
import type { AppDatabase } from '../app-db.ts';
import { recordAudit } from './audit-log.ts';
import { countObjects, createObject, findObject, listObjects, updateObject, type ToolObject } from './tool-objects.ts';

export const FORM_KIND = 'form';
export const FIELD_TYPES = ['text', 'email', 'phone', 'number', 'select', 'checkbox', 'textarea', 'date'] as const;
export const MAX_FIELDS = 20;
const MAX_FORMS = 500;

export const formField = z
  .object({
    label: z.string().trim().min(1).max(200).describe('Label shown to the visitor'),
    type: z.enum(FIELD_TYPES).describe('Input kind'),
    required: z.boolean().default(false).describe('Must be filled in'),
    options: z.array(z.string().trim().min(1).max(200)).max(50).optional().describe('For a select field'),
  })
  .strict()
  .superRefine((field, ctx) => {
    // A select field without options could never take a value; options elsewhere would mean nothing.
    if (field.type === 'select' && !field.options?.length) ctx.addIssue({ code: 'custom', message: `${field.label}: a select field needs its options` });
    if (field.type !== 'select' && field.options) ctx.addIssue({ code: 'custom', message: `${field.label}: only a select field takes options` });
    if (field.options && new Set(field.options).size !== field.options.length) ctx.addIssue({ code: 'custom', message: `${field.label}: each option once` });
  });

export type FormField = z.output<typeof formField>;
export type FormStatus = 'draft' | 'live' | 'closed';
export type FormData = { name: string; status: FormStatus; fields: FormField[] };
export type Form = ToolObject<FormData>;

const formInput = z.object({ name: z.string().trim().min(1).max(200), fields: z.array(formField).max(MAX_FIELDS) }).strict();

export function parseForm(raw: unknown): { name: string; fields: FormField[] } {
  const parsed = formInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidInput(issue.code === 'custom' ? issue.message : `${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export async function createForm(db: AppDatabase, workspaceId: number, form: { name: string; fields: FormField[] }, actor: string): Promise<Form> {
  if ((await countObjects(db, workspaceId, FORM_KIND)) >= MAX_FORMS) throw new InvalidInput(`A workspace keeps at most ${MAX_FORMS} forms`);
  const created = await createObject<FormData>(db, workspaceId, FORM_KIND, { ...form, status: 'draft' });
  await recordAudit(db, { workspaceId, actor, action: 'form.create', target: `${FORM_KIND}:${created.id}`, details: { created: form } });
  return created;
}

export async function requireForm(db: AppDatabase, workspaceId: number, id: number): Promise<Form> {
  const form = await findObject<FormData>(db, workspaceId, FORM_KIND, id);
  if (!form) throw new NotFound(`Form ${id} not found`);
  return form;
}

export function listForms(db: AppDatabase, workspaceId: number): Promise<Form[]> {
  return listObjects<FormData>(db, workspaceId, FORM_KIND, { limit: MAX_FORMS, offset: 0 });
}

/** Makes a draft (or a closed form) live: the collector accepts its submissions from then on. */
export async function publishForm(db: AppDatabase, workspaceId: number, id: number, actor: string): Promise<Form> {
  const form = await requireForm(db, workspaceId, id);
  if (form.data.fields.length === 0) throw new InvalidInput(`Form ${id} has no fields: add some with forms.add-fields first`);
  const published = (await updateObject<FormData>(db, workspaceId, FORM_KIND, id, { status: 'live' }))!;
  await recordAudit(db, { workspaceId, actor, action: 'form.publish', target: `${FORM_KIND}:${id}` });
  return published;
}

/** Ends a live form: the collector refuses its submissions (404) as for a draft. */
export async function closeForm(db: AppDatabase, workspaceId: number, id: number, actor: string): Promise<Form> {
  const form = await requireForm(db, workspaceId, id);
  if (form.data.status !== 'live') throw new Conflict(`Form ${id} is not live (it is ${form.data.status})`);
  const closed = (await updateObject<FormData>(db, workspaceId, FORM_KIND, id, { status: 'closed' }))!;
  await recordAudit(db, { workspaceId, actor, action: 'form.close', target: `${FORM_KIND}:${id}` });
  return closed;
}

/** The form if it is live; a draft or unknown form takes no submissions. */
export async function findLiveForm(db: AppDatabase, workspaceId: number, id: number): Promise<Form | undefined> {
  const form = await findObject<FormData>(db, workspaceId, FORM_KIND, id);
  return form?.data.status === 'live' ? form : undefined;
}
