import { z } from 'zod';
import { METRICS, METRIC_NAMES, DEFAULT_METRICS } from '../../../analytics/metrics.ts';
import { BREAKDOWNS, INTERVAL_NAMES } from '../../../analytics/dimensions.ts';
import { canRequest, seesAnyPixelData } from '../../../analytics/permissions.ts';
import { listConversionNames } from '../../../analytics/conversion-name-list.ts';
import { PIXEL_SOURCES, SOURCE_GROUPS } from '../../../analytics/sources.ts';
import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS } from '../../../analytics/attribution/index.ts';
import { segmentFieldList } from '../../../analytics/segment-fields.ts';
import { findWorkspace, getSettings } from '../../../store/app/workspaces.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import * as out from '../kit/outputs.ts';

export const metadataTools = [
  readTool(
    'metadata.list_schema',
    'Describe the data',
    'Call first: what analytics.query accepts and this key may read: metrics (and read:profit), breakdowns, ' +
      'intervals, attribution options, sources and groups, settings, conversion names with counts.',
    "The service's metric and breakdown vocabulary, the key's scopes and the workspace settings; the names of the range's conversions (traffic), the range in days of the workspace's time zone by default.",
    z.object(rangeArgs).strict(),
    z.strictObject({
      schema: out.fields({
        workspace: out.fields({ id: out.str, name: out.str, currency: out.str, timezone: out.str }),
        scopes: out.strs,
        metrics: out.list({ name: out.str, kind: out.str, needs_profit_access: out.bool, available: out.bool }),
        default_metrics: out.strs,
        breakdowns: out.strs,
        intervals: out.strs,
        attribution: out.open,
        sources: out.list({ source: out.str, readable: out.bool }),
        source_groups: out.list({ group: out.str, sources: out.strs }),
        dashboard_settings: out.open,
        segment_fields: out.list({ field: out.str, type: out.str, operators: out.strs, description: out.str }),
        conversion_names: out.fields({
          ...out.range,
          names: out.list({ name: out.str, conversions: out.num, revenue: out.num, counted: out.bool }),
          settings_applied: out.namesApplied,
        }),
      }),
    }),
    async (ctx, input) => {
      const workspace = await findWorkspace(ctx.db, ctx.workspaceId);
      const settings = await getSettings(ctx.db, ctx.workspaceId);
      const range = toolRange(ctx, input);
      // A key that reads no traffic (ads only) sees no conversion, so no name.
      const listed = seesAnyPixelData(ctx.visibility) ? await listConversionNames(ctx, ctx, range) : { names: [], conversion_names: settings.conversion_names };
      return {
        schema: {
          workspace: { id: String(ctx.workspaceId), name: workspace?.name ?? '', currency: settings.currency, timezone: settings.timezone },
          scopes: ctx.scopes,
          metrics: METRIC_NAMES.map((name) => ({
            name,
            kind: METRICS[name].kind,
            needs_profit_access: METRICS[name].profit,
            available: !METRICS[name].profit || ctx.visibility.profit,
          })),
          default_metrics: DEFAULT_METRICS,
          breakdowns: BREAKDOWNS,
          intervals: INTERVAL_NAMES,
          attribution: { models: ATTRIBUTION_MODELS, windows: ATTRIBUTION_WINDOWS, dates: ATTRIBUTION_DATES },
          sources: PIXEL_SOURCES.map((source) => ({ source, readable: canRequest(ctx.visibility, source) })),
          source_groups: Object.entries(SOURCE_GROUPS).map(([group, sources]) => ({ group, sources })),
          dashboard_settings: {
            attribution_model: settings.attribution_model,
            attribution_window: settings.attribution_window,
            attribution_date: settings.attribution_date,
            ignore_sources: settings.ignore_sources,
          },
          segment_fields: segmentFieldList(),
          conversion_names: { ...rangeOut(range), names: listed.names, settings_applied: { conversion_names: listed.conversion_names } },
        },
      };
    },
  ),
];
