/**
 * Where each tool's data come from, for docs/tools.md (not sent in tools/list, whose size is
 * budgeted). One sentence per tool, grouped by family; `test/mcp/tools-doc.test.ts` fails when a
 * tool has none or a name here is no tool. "Traffic" is what the pixel and the collector record
 * (docs/collection.md); "orders" come from the shop platforms' webhooks, the order webhook and
 * order imports (docs/integrations.md); "ad rows" from the ad platforms' exports and API pulls.
 */
export const DATA_SOURCES: ReadonlyMap<string, string> = new Map([
  ['workspaces_list', 'The workspaces the person added on the OAuth consent page.'],

  ['metadata.list_schema', "The service's metric and breakdown vocabulary, the key's scopes and the workspace settings."],

  ['analytics.query', 'The report core over traffic, conversions, orders and ad rows, with the workspace settings.'],
  ['analytics.profit-summary', 'The report core; costs from orders (COGS, fees, shipping, refunds), product costs and custom expenses imports.'],

  ['attribution.get-data', 'The report core, once per attribution model, over traffic, conversions and ad rows.'],

  ['journeys.get-data', "Each buyer's sessions before a conversion, from traffic and conversions."],

  ['correlations.get-data', 'Daily spend from ad rows against daily conversion revenue from traffic.'],

  ['hourly.get-data', 'Sessions and conversions from traffic, by hour in the workspace time zone.'],

  ['map.get-data', "Sessions and conversions by the visitors' country and city (traffic)."],

  ['weather.get-data', 'Needs an import of daily weather rows (`import --kind weather`), joined with conversions; empty until one.'],

  ['ad-fatigue.get-scores', 'Daily ad delivery (impressions, clicks, reach) from ad rows.'],

  ['geo-testing.get-tests', 'Geo tests stored in the workspace.'],
  ['geo-testing.get-candidates', 'Conversions by country from traffic.'],

  ['ab-testing.get-tests', 'Landing URLs carrying ab_test and ab_variant in traffic; empty until the shop tags its tests that way.'],
  ['ab-testing.get-results', 'Sessions and conversions per variant, from traffic.'],

  ['health-center.get-summary', 'The newest events and conversions (traffic) and the newest ad rows.'],

  ['loyalty.get-programs', 'Loyalty programs stored in the workspace.'],
  ['loyalty.get-analytics', 'Repeat purchases of customers, from orders.'],

  ['library.get-assets', 'Ads and their delivery from ad rows, with the conversions credited to them.'],

  ['labels.get-labels', 'Labels set with labels.label-asset.'],
  ['labels.label-asset', 'Ads from ad rows; the labels are stored in the workspace.'],

  ['lists.get-lists', 'Lists made with the lists tools.'],
  ['lists.create', 'Stored in the workspace.'],
  ['lists.add-column', 'Stored in the workspace.'],
  ['lists.add-items', 'Stored in the workspace.'],
  ['lists.update-items', 'Stored in the workspace.'],
  ['lists.add-top-creatives', 'Ads from ad rows ranked as library.get-assets ranks them.'],

  ['notes.get-notes', 'Notes saved with notes.save-note.'],
  ['notes.save-note', 'Stored in the workspace.'],
  ['notes.update', 'Stored in the workspace.'],

  ['segments.get-segments', 'Segments stored in the workspace.'],
  ['segments.create', 'Stored in the workspace.'],
  ['segments.update', 'Stored in the workspace.'],

  ['marketing-angles.get-angles', 'Angles stored in the workspace.'],
  ['marketing-angles.create', 'Stored in the workspace.'],
  ['marketing-angles.update', 'Stored in the workspace.'],

  ['topics.get-topics', 'Keywords stored with topics.add.'],
  ['topics.add', 'Stored in the workspace.'],

  ['surveys.get-responses', 'Surveys drafted with surveys.create.'],
  ['surveys.create', 'Stored in the workspace as a draft.'],

  ['forms.get-forms', 'Forms stored in the workspace.'],
  ['forms.add-fields', 'Stored in the workspace.'],

  ['offers.get-offers', 'Offers stored in the workspace.'],
  ['offers.get-opportunities', 'Sessions with a cart and no conversion, and coupon codes on conversions, from traffic.'],
  ['offers.create', 'Stored in the workspace as a draft.'],
  ['offers.update', 'Stored in the workspace.'],

  ['creators.get-creators', 'Creators stored in the workspace.'],
  ['creators.get-programs', 'Creator programs stored in the workspace.'],
  ['creators.create-program', 'Stored in the workspace.'],
  ['creators.create', 'Stored in the workspace.'],
  ['creators.update', 'Stored in the workspace.'],

  ['ai-visibility.get-results', 'Prompts stored with ai-visibility.create-prompt.'],
  ['ai-visibility.create-prompt', 'Stored in the workspace.'],

  ['dashboards.get-dashboards', 'Custom reports saved with dashboards.create-report.'],
  ['dashboards.create-report', 'Stored in the workspace.'],

  ['workflows.get-rules', 'Workflows created with workflows.create.'],
  ['workflows.get-executions', 'Workflow executions stored in the workspace.'],
  ['workflows.create', 'Stored in the workspace, disabled.'],

  ['audit-log.get-log', 'Every write through the tools, and the OAuth consents.'],
]);
