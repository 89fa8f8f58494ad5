/** The Conversions view's endpoints: the rows, the names, one conversion's path and why it was credited. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../kit/errors.ts';
import { UTC } from '../kit/calendar/zones.ts';
import { rangePage } from '../kit/paging.ts';
import { channelsOfAll } from '../analytics/sources.ts';
import { seesChannel } from '../analytics/permissions.ts';
import { MODELS, planAttribution } from '../analytics/attribution/index.ts';
import { ensureExcludedList } from '../analytics/queries/settings/excluded-transactions.ts';
import { listConversions } from '../analytics/queries/conversions/list-conversions.ts';
import { conversionPath } from '../analytics/queries/conversions/conversion-path.ts';
import { explainConversion } from '../analytics/explain/explain-conversion.ts';
import { withAdNames } from '../analytics/touch-names.ts';
import { getSettings } from '../store/app/workspaces.ts';
import { parseReportQuery } from '../api/report/schema.ts';
import { parseConversionsQuery } from '../api/conversions/schema.ts';
import { listConversionNames } from '../analytics/conversion-name-list.ts';
import { countedNames } from '../analytics/conversion-names.ts';
import { parseAttributionQuery } from '../api/attribution/schema.ts';
import { idParam, pageOf, parseQuery, text } from '../api/params.ts';
import { pixelScope } from '../analytics/query-scope.ts';
import { undated } from '../kit/calendar/range.ts';
import { workspaceAccess } from './access.ts';
import { viewDays, viewRange } from './store-calendar.ts';
import { VIEW_PARAMS } from './view-request.ts';

const pathQuery = z.object({
  session_id: idParam('session_id').refine((v) => v !== undefined, { error: 'session_id must be numeric' }),
  dt: z.string({ error: 'dt must be a timestamp YYYY-MM-DD HH:MM:SS' }).regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, {
    error: 'dt must be a timestamp YYYY-MM-DD HH:MM:SS',
  }),
  name: text('Invalid name parameter'),
  transaction_id: text('Invalid transaction_id parameter').optional().default(''),
});

export async function conversionRoutes(app: FastifyInstance): Promise<void> {
  /** Conversions: the raw rows of /v3/conversions, with its filters and paging, newest first. */
  app.get('/dashboard/api/conversions', async (request) => {
    const access = workspaceAccess(request);
    const query = parseConversionsQuery(request.query, VIEW_PARAMS);
    const scope = pixelScope(access, viewRange(query, access.timeZone, Date.now()), query.source);
    const page = pageOf(query);
    const rows = await listConversions(app.stores.ch, scope, {
      name: query.name,
      transactionId: query.transaction_id,
      customerId: query.customer_id,
      isNewCustomer: query.is_new_customer,
      excluded: channelsOfAll(query.exclude_source ?? []),
      page,
      newestFirst: true,
    });
    return rangePage(rows, page, scope.range);
  });

  /** The conversion names of the view's range with their counts, and whether the workspace counts each. */
  app.get('/dashboard/api/conversions/names', async (request) => {
    const access = workspaceAccess(request);
    const query = parseConversionsQuery(request.query, VIEW_PARAMS);
    const range = viewRange(query, access.timeZone, Date.now());
    return { ...(await listConversionNames(app.stores, access, range)), range: viewDays(range) };
  });

  /** One conversion's touchpoint path under the report's model, window and exclusions, campaigns, ad groups and ads named. */
  app.get('/dashboard/api/conversions/path', async (request) => {
    const access = workspaceAccess(request);
    const query = parseReportQuery(request.query, [...VIEW_PARAMS, ...Object.keys(pathQuery.shape)]);
    const key = parseQuery(pathQuery, request.query as Record<string, unknown>);
    const settings = await getSettings(app.stores.db, access.workspaceId);
    const attribution = planAttribution(query, settings, access.visibility);
    // The conversion must be one the member may list: same channel rule as the conversions view.
    const convMs = Date.parse(`${key.dt.replace(' ', 'T')}Z`);
    const visible = await listConversions(app.stores.ch, pixelScope(access, { startMs: convMs, endMs: convMs + 999, timeZone: UTC }), {
      name: key.name,
      transactionId: key.transaction_id,
      page: { limit: 100, offset: 0 },
    });
    if (!visible.some((c) => c.session_id === String(key.session_id))) throw new NotFound('Conversion not found');
    // A learned model (markov, data_driven) credits with what it learned over the view's range.
    await ensureExcludedList(app.stores.ch, access.workspaceId, settings.excluded_transaction_ids);
    const bound = await MODELS[attribution.model].bind?.({
      ch: app.stores.ch, db: app.stores.db, scope: pixelScope(access, viewRange(query, access.timeZone, Date.now())), attribution,
      visibleChannels: access.visibility.channels && [...access.visibility.channels], excludedTransactions: settings.excluded_transaction_ids,
      conversionNames: countedNames(settings),
    });
    const path = await conversionPath(app.stores.ch, {
      workspaceId: access.workspaceId,
      key: { sessionId: key.session_id!, dt: key.dt, name: key.name, transactionId: key.transaction_id },
      attribution,
      bound: bound ?? {},
    });
    if (!path) throw new NotFound('Conversion not found');
    // A viewer limited to some channels does not see the other channels' sessions.
    const visibleTouches = path.touches.filter((t) => seesChannel(access.visibility, t.channel));
    const touches = await withAdNames(app.stores.ch, access.workspaceId, visibleTouches);
    return {
      ...path,
      touches,
      attribution_model: attribution.model,
      attribution_window: attribution.windowDays,
      exclude_source: attribution.excludedSources,
    };
  });

  /**
   * Why one order was credited: /v3/attribution's answer for the member's permissions, the chain
   * learned over the view's range (the order is the newest sale with the id in it).
   */
  app.get('/dashboard/api/conversions/why', async (request) => {
    const access = workspaceAccess(request);
    const query = parseAttributionQuery(request.query, VIEW_PARAMS);
    return explainConversion(app.stores, access, viewRange(query, access.timeZone, Date.now()), undated(query));
  });
}
