/**
 * The HTML a shop pastes to put a storefront form on a page that carries the pixel
 * (docs/collection.md, "Storefront forms"): a `<form data-storelens-form>` whose controls name
 * their field by index (`data-storelens-field`), each with its label, and a polite live region for
 * what happened. The controls have no `name`, so a submit before the pixel has loaded sends the
 * visitor's values nowhere (the page only reloads). The shop may restyle or rearrange it freely as long as the marks stay.
 */
import { escapeHtml } from '../../kit/html.ts';
import type { Form, FormField } from './forms.ts';

const INPUT_TYPES: Record<Exclude<FormField['type'], 'select' | 'textarea' | 'checkbox'>, string> = {
  text: 'text',
  email: 'email',
  phone: 'tel',
  number: 'number',
  date: 'date',
};

const AUTOCOMPLETE: Partial<Record<FormField['type'], string>> = { email: 'email', phone: 'tel' };

function control(field: FormField, id: string, index: number): string {
  const marks = `id="${id}" data-storelens-field="${index}"${field.required ? ' required' : ''}`;
  switch (field.type) {
    case 'textarea':
      return `<textarea ${marks} rows="4" maxlength="2000"></textarea>`;
    case 'select':
      return `<select ${marks}>\n    <option value="">Choose…</option>\n${(field.options ?? []).map((o) => `    <option>${escapeHtml(o)}</option>\n`).join('')}  </select>`;
    case 'checkbox':
      return `<input type="checkbox" ${marks}>`;
    default: {
      const autocomplete = AUTOCOMPLETE[field.type];
      return `<input type="${INPUT_TYPES[field.type]}" ${marks}${field.type === 'number' ? ' step="any"' : ''}${autocomplete ? ` autocomplete="${autocomplete}"` : ''}>`;
    }
  }
}

function row(form: Form, field: FormField, index: number): string {
  const id = `storelens-${form.id}-${index}`;
  const label = escapeHtml(field.label);
  if (field.type === 'checkbox') return `  <p><label>${control(field, id, index)} ${label}</label></p>\n`;
  return `  <p><label for="${id}">${label}</label>\n  ${control(field, id, index)}</p>\n`;
}

export function formEmbedHtml(form: Form): string {
  return [
    `<form data-storelens-form="${form.id}" aria-label="${escapeHtml(form.data.name)}">\n`,
    ...form.data.fields.map((field, index) => row(form, field, index)),
    '  <p><button type="submit">Send</button></p>\n',
    '  <p data-storelens-status role="status" aria-live="polite"></p>\n',
    '</form>',
  ].join('');
}
