/**
 * The body of `POST /collect/form` and its turn into a `form_submissions` row (docs/collection.md,
 * "Storefront forms"). Each value is checked against its field: text of at most 2,000 characters,
 * an e-mail address, a phone number, a number, one of a select field's options, true or false for
 * a checkbox, a calendar day. The first value that does not fit, or a required field left out,
 * refuses the whole submission with a message naming the field.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { InvalidInput } from '../kit/errors.ts';
import { parseBound } from '../kit/calendar/days.ts';
import { type Form, type FormField } from '../store/app/forms.ts';
import { formatTimestamp } from './fields.ts';
import { wellFormed } from '../kit/well-formed.ts';

export const MAX_FIELD_TEXT = 2000;
export const FORM_BODY_LIMIT = 64 * 1024;
const MAX_VALUES = 100;

export const formSubmissionBody = z.object({
  pixel_id: z.string({ error: 'is required' }).min(1, 'is required').max(100),
  form_id: z.string({ error: 'expected the form id (digits)' }).regex(/^\d{1,15}$/, 'expected the form id (digits)'),
  visitor_id: z.string({ error: "expected the pixel's visitor id (digits)" }).regex(/^[1-9]\d{0,18}$/, "expected the pixel's visitor id (digits)").optional(),
  values: z
    .array(
      z.object({
        field: z.number({ error: 'expected the field index' }).int('expected the field index').min(0, 'expected the field index'),
        value: z.union([z.string().max(MAX_FIELD_TEXT * 2), z.number(), z.boolean()], { error: 'expected text, a number or true/false' }),
      }),
      { error: 'expected an array of values' },
    )
    .min(1, 'must not be empty')
    .max(MAX_VALUES, `at most ${MAX_VALUES} values`),
});

export type FormSubmissionBody = z.infer<typeof formSubmissionBody>;
type Value = string | number | boolean;
export interface CheckedValue {
  field: number;
  label: string;
  value: Value;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@.]{2,63}$/;
const PHONE = /^\+?[0-9][0-9 ().-]{3,28}[0-9]$/;

/** The value in its stored form, or what the field expects. */
function checkValue(field: FormField, value: Value): { value: Value } | { problem: string } {
  const text = typeof value === 'string' ? wellFormed(value.trim()) : null;
  switch (field.type) {
    case 'text':
    case 'textarea':
      return text && text.length <= MAX_FIELD_TEXT ? { value: text } : { problem: `expected text of 1 to ${MAX_FIELD_TEXT} characters` };
    case 'email':
      return text && text.length <= 320 && EMAIL.test(text) ? { value: text.toLowerCase() } : { problem: 'expected an e-mail address' };
    case 'phone':
      return text && PHONE.test(text) ? { value: text } : { problem: 'expected a phone number' };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { problem: 'expected a number' };
    case 'select':
      return text !== null && (field.options ?? []).includes(text) ? { value: text } : { problem: 'expected one of its options' };
    case 'checkbox':
      return typeof value === 'boolean' ? { value } : { problem: 'expected true or false' };
    case 'date':
      return text && /^\d{4}-\d{2}-\d{2}$/.test(text) && parseBound(text, 'start') !== null ? { value: text } : { problem: 'expected a day YYYY-MM-DD' };
  }
}

/** The values in field order, each checked against its field; InvalidInput names the first that does not fit. */
export function checkValues(form: Form, values: FormSubmissionBody['values']): CheckedValue[] {
  const fields = form.data.fields;
  const checked = new Map<number, CheckedValue>();
  for (const { field: index, value } of values) {
    const field = fields[index];
    if (!field) throw new InvalidInput(`field ${index}: form ${form.id} has fields 0 to ${fields.length - 1}`);
    if (checked.has(index)) throw new InvalidInput(`field ${index} (${field.label}): given more than once`);
    const result = checkValue(field, value);
    if ('problem' in result) throw new InvalidInput(`field ${index} (${field.label}): ${result.problem}`);
    checked.set(index, { field: index, label: field.label, value: result.value });
  }
  const missing = fields.findIndex((field, index) => field.required && !checked.has(index));
  if (missing >= 0) throw new InvalidInput(`field ${missing} (${fields[missing]!.label}): is required`);
  return [...checked.values()].sort((a, b) => a.field - b.field);
}

export interface FormSubmissionRow {
  store_id: number;
  form_id: number;
  submission_id: string;
  visitor_id: string;
  email: string;
  fields: string;
  dt: string;
}

export function formSubmissionRow(workspaceId: number, form: Form, body: FormSubmissionBody, values: CheckedValue[], now: number): FormSubmissionRow {
  const email = values.find((v) => form.data.fields[v.field]!.type === 'email');
  return {
    store_id: workspaceId,
    form_id: form.id,
    submission_id: crypto.randomUUID(),
    visitor_id: body.visitor_id ?? '0',
    email: email ? String(email.value) : '',
    fields: JSON.stringify(values),
    dt: formatTimestamp(new Date(now)),
  };
}
