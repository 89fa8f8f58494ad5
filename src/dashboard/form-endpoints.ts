/**
 * The forms view's endpoints (docs/dashboard.md, "Forms"): every member reads the storefront
 * forms, their submission counts, the HTML a shop pastes for each, and a form's newest
 * submissions (leads); owners publish and close, as `form publish|close` do on the command line.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { countFormSubmissions } from '../analytics/queries/forms/count-submissions.ts';
import { newestFormSubmissions } from '../analytics/queries/forms/newest-submissions.ts';
import { closeForm, listForms, publishForm, requireForm, type Form } from '../store/app/forms.ts';
import { formEmbedHtml } from '../store/app/form-embed.ts';
import { limitParam, offsetParam, pageOf, parseWith } from '../api/params.ts';
import { slicePage } from '../kit/paging.ts';
import { pathId, type IdRequest } from './path-id.ts';
import { requireOwner, workspaceAccess } from './access.ts';

const idOf = (request: IdRequest) => pathId(request, 'Form');

const actor = (request: FastifyRequest) => `dashboard:${request.dashboardUser!.email}`;

const shown = (form: Form) => ({
  id: String(form.id),
  ...form.data,
  embed: formEmbedHtml(form),
  created_at: form.createdAt,
  updated_at: form.updatedAt,
});

const submissionsQuery = { schema: z.object({ limit: limitParam, offset: offsetParam }) };

export async function formRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/forms', async (request) => {
    const { workspaceId } = workspaceAccess(request);
    const [forms, counts] = await Promise.all([listForms(app.stores.db, workspaceId), countFormSubmissions(app.stores.ch, workspaceId)]);
    return { forms: forms.map((form) => ({ ...shown(form), submissions: counts.get(form.id) ?? 0 })) };
  });

  app.get<{ Params: { id: string } }>('/dashboard/api/forms/:id/submissions', async (request) => {
    const { workspaceId } = workspaceAccess(request);
    const page = pageOf(parseWith(submissionsQuery, request.query, ['workspace']));
    const form = await requireForm(app.stores.db, workspaceId, idOf(request));
    const submissions = await newestFormSubmissions(app.stores.ch, { workspaceId, formId: form.id, page: { ...page, limit: page.limit + 1 } });
    const { data, pagination } = slicePage(submissions, page);
    return { submissions: data, has_more: pagination.has_more, offset: page.offset, limit: page.limit };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/forms/:id/publish', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    return { form: shown(await publishForm(app.stores.db, access.workspaceId, idOf(request), actor(request))) };
  });

  app.post<{ Params: { id: string } }>('/dashboard/api/forms/:id/close', async (request) => {
    const access = workspaceAccess(request);
    requireOwner(access);
    return { form: shown(await closeForm(app.stores.db, access.workspaceId, idOf(request), actor(request))) };
  });
}
