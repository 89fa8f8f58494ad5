import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS } from '../../store/app/settings.ts';

/**
 * The names a request may choose from. They are settings values too, so the workspace settings
 * (in the store, below this layer) define the lists; every surface takes them from here.
 */
export type ModelName = (typeof ATTRIBUTION_MODELS)[number];
export type AttributionWindow = (typeof ATTRIBUTION_WINDOWS)[number];
export type AttributionDate = (typeof ATTRIBUTION_DATES)[number];
export { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS };
