import { z } from 'zod';
import { InvalidRequest, idArg, shortText, writeTool } from '../kit/tool.ts';
import { present, requireObject, updateAudited, listTool } from '../kit/objects.ts';
import * as out from '../kit/outputs.ts';

const KIND = 'form';
const FIELD_TYPES = ['text', 'email', 'phone', 'number', 'select', 'checkbox', 'textarea', 'date'] as const;

type Field = { label: string; type: string; required: boolean; options?: string[] };
type Form = { name: string; status: 'draft' | 'live'; fields: Field[] };

export const formTools = [
  listTool(
    'forms.get-forms',
    'Get forms',
    'Lead and signup forms with status (draft or live) and fields.',
    'Forms stored in the workspace.',
    KIND,
    'forms',
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
          .array(
            z
              .object({
                label: shortText('Label shown to the visitor'),
                type: z.enum(FIELD_TYPES).describe('Input kind'),
                required: z.boolean().default(false).describe('Must be filled in'),
                options: z.array(z.string().trim().min(1).max(200)).max(50).optional().describe('For a select field'),
              })
              .strict(),
          )
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
