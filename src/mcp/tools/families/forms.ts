import { z } from 'zod';
import { InvalidRequest, idArg, limitArg, offsetArg, readTool, writeTool } from '../kit/tool.ts';
import { listPresented, present, requireObject, updateAudited } from '../kit/objects.ts';
import { countFormSubmissions } from '../../../analytics/queries/forms/count-submissions.ts';
import { FORM_KIND as KIND, formField, type FormData as Form } from '../../../store/app/forms.ts';
import * as out from '../kit/outputs.ts';

export const formTools = [
  readTool(
    'forms.get-forms',
    'Get forms',
    'Lead and signup forms: status (draft, live or closed), fields, submissions (leads received).',
    "Forms from `form create`, published and closed by a person (`form publish|close`, the dashboard); submissions posted by the pixel's form script to `POST /collect/form`.",
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ forms: out.storedList }),
    async (ctx, page) => {
      const [forms, counts] = await Promise.all([listPresented(ctx, KIND, page), countFormSubmissions(ctx.ch, ctx.workspaceId)]);
      return { forms: forms.map((form) => ({ ...form, submissions: counts.get(Number(form.id)) ?? 0 })) };
    },
  ),
  writeTool(
    'forms.add-fields',
    'Add form fields',
    'Appends fields to a form; a live form changes for visitors at once, so it needs confirm_live: true.',
    'Stored in the workspace.',
    z
      .object({
        form_id: idArg('form'),
        fields: z
          .array(formField)
          .min(1)
          .max(20)
          .describe('Fields to append'),
        confirm_live: z.boolean().default(false).describe('Allow changing a live form'),
      })
      .strict(),
    z.strictObject({ form: out.stored }),
    async (ctx, { form_id, fields, confirm_live }) => {
      const form = await requireObject<Form>(ctx, KIND, form_id, 'Form');
      if (form.data.status === 'live' && !confirm_live) {
        throw new InvalidRequest(`Form ${form_id} is live: set confirm_live to true to change it`);
      }
      const updated = await updateAudited<Form>(ctx, 'forms.add-fields', KIND, form_id, { fields: [...form.data.fields, ...fields] }, 'Form');
      return { form: present(updated) };
    },
  ),
];
