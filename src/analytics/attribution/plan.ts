import { AccessDenied } from '../../kit/errors.ts';
import { oneOf } from '../../kit/choices.ts';
import type { WorkspaceSettings } from '../../store/app/settings.ts';
import { pixelRefusal, type Visibility } from '../permissions.ts';
import { PIXEL_SOURCES, channelsOfAll } from '../sources.ts';
import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS, type AttributionDate, type AttributionWindow, type ModelName } from '../../kit/vocabulary.ts';

/** The attribution choices of a request, as every surface passes them; anything left out comes from the settings. */
export interface AttributionRequest {
  attribution_model?: string;
  attribution_window?: number;
  attribution_date?: string;
  /** Sources removed from every path; replaces the settings' ignore_sources when given. */
  exclude_source?: string[];
}

/** How conversions are credited, every choice made. */
export interface AttributionPlan {
  model: ModelName;
  windowDays: AttributionWindow;
  dateMode: AttributionDate;
  /** Raw channels removed from every path before the model runs. */
  excludedChannels: string[];
  /** The sources behind `excludedChannels`, as named (settings_applied.ignore_sources). */
  excludedSources: string[];
}

/**
 * The one gate of attribution: the report, a conversion's path and explanation, the dashboard and
 * the tools all turn their request into a plan here, so a model, window or date mode is checked and
 * defaulted in one place. A request may only exclude sources its key sees in full: moving a hidden
 * channel's credit onto a visible one would tell the key which orders the hidden channel touched.
 * The workspace's own ignore_sources apply as they are, to every key alike. Bad values are refused
 * before the access check, as everywhere: call it after a request's other input checks.
 */
export function planAttribution(request: AttributionRequest, settings: WorkspaceSettings, visibility: Visibility): AttributionPlan {
  const model = oneOf('attribution_model', request.attribution_model ?? settings.attribution_model, ATTRIBUTION_MODELS);
  const windowDays = oneOf('attribution_window', request.attribution_window ?? settings.attribution_window, ATTRIBUTION_WINDOWS);
  const dateMode = oneOf('attribution_date', request.attribution_date ?? settings.attribution_date, ATTRIBUTION_DATES);
  const requested = request.exclude_source;
  for (const source of requested ?? []) oneOf('exclude_source', source, PIXEL_SOURCES);
  const refusal = requested?.length ? pixelRefusal(visibility, requested) : null;
  if (refusal) throw new AccessDenied(refusal);
  const excludedSources = [...(requested ?? settings.ignore_sources)];
  return { model, windowDays, dateMode, excludedChannels: channelsOfAll(excludedSources), excludedSources };
}
