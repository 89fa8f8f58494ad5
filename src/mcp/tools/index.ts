import { z } from 'zod';
import { closestMatch } from 'leven';
import { abTestingTools } from './families/ab-testing.ts';
import { adFatigueTools } from './families/ad-fatigue.ts';
import { aiVisibilityTools } from './families/ai-visibility.ts';
import { analyticsTools } from './families/analytics.ts';
import { attributionTools } from './families/attribution.ts';
import { auditLogTools } from './families/audit-log.ts';
import { budgetTools } from './families/budget.ts';
import { conversionTools } from './families/conversions.ts';
import { correlationTools } from './families/correlations.ts';
import { creatorTools } from './families/creators.ts';
import { dashboardTools } from './families/dashboards.ts';
import { exportTools } from './families/exports.ts';
import { formTools } from './families/forms.ts';
import { geoTestingTools } from './families/geo-testing.ts';
import { healthCenterTools } from './families/health-center.ts';
import { reconciliationTools } from './families/reconciliation.ts';
import { customerTools } from './families/customers.ts';
import { hourlyTools } from './families/hourly.ts';
import { journeyTools } from './families/journeys.ts';
import { labelTools } from './families/labels.ts';
import { libraryTools } from './families/library.ts';
import { listTools } from './families/lists.ts';
import { loyaltyTools } from './families/loyalty.ts';
import { mapTools } from './families/map.ts';
import { marketingAngleTools } from './families/marketing-angles.ts';
import { metadataTools } from './families/metadata.ts';
import { noteTools } from './families/notes.ts';
import { offerTools } from './families/offers.ts';
import { productTools } from './families/products.ts';
import { segmentTools } from './families/segments.ts';
import { surveyTools } from './families/surveys.ts';
import { topicTools } from './families/topics.ts';
import { weatherTools } from './families/weather.ts';
import { workflowTools } from './families/workflows.ts';
import { workspacesListTool } from './families/workspaces.ts';
import { jsonSchemaOf, outputSchemaOf, shareRepeatedEnums } from './kit/json-schema.ts';
import { appOfTool } from '../apps/index.ts';

export { jsonSchemaOf };
import { ALL_TOOLS, familyOf, isSelected, type ToolSelection } from './kit/selection.ts';
import type { ToolDefinition } from './kit/tool.ts';

/** Every tool of the endpoint, in the order tools/list shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  ...metadataTools,
  ...analyticsTools,
  ...productTools,
  ...attributionTools,
  ...conversionTools,
  ...journeyTools,
  ...correlationTools,
  ...budgetTools,
  ...hourlyTools,
  ...mapTools,
  ...weatherTools,
  ...adFatigueTools,
  ...geoTestingTools,
  ...abTestingTools,
  ...healthCenterTools,
  ...reconciliationTools,
  ...customerTools,
  ...loyaltyTools,
  ...libraryTools,
  ...labelTools,
  ...listTools,
  ...noteTools,
  ...segmentTools,
  ...marketingAngleTools,
  ...topicTools,
  ...surveyTools,
  ...formTools,
  ...offerTools,
  ...creatorTools,
  ...aiVisibilityTools,
  ...dashboardTools,
  ...exportTools,
  ...workflowTools,
  ...auditLogTools,
];

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** Every tool family (the part of a name before the dot), in tools/list order. */
export const TOOL_FAMILIES: readonly string[] = [...new Set(TOOLS.map((t) => familyOf(t.name)))];

/** A tool of the connection's selection by name; undefined when unknown or left out. */
export function findTool(name: string, selection: ToolSelection = ALL_TOOLS): ToolDefinition | undefined {
  const tool = BY_NAME.get(name);
  return tool && isSelected(tool, selection) ? tool : undefined;
}

/**
 * The tool of the selection an unknown name most likely meant: a near spelling (`analytics_query`,
 * `notes.get-note`) or the same name after the dot in another family (`query`, `get-data` under
 * its family's name); undefined when nothing is close.
 */
export function nearestTool(name: string, selection: ToolSelection = ALL_TOOLS): string | undefined {
  const names = TOOLS.filter((t) => isSelected(t, selection)).map((t) => t.name);
  const near = closestMatch(name, names, { maxDistance: Math.max(1, Math.floor(name.length / 4)) });
  if (near !== undefined) return near;
  const bare = name.slice(name.indexOf('.') + 1);
  const sameAction = names.filter((n) => n.endsWith(`.${bare}`));
  return sameAction.length === 1 ? sameAction[0] : undefined;
}

/**
 * Required on every tool of a multi-workspace connection. What it is, an id from workspaces_list,
 * is said once, in that tool's description and in the instructions, not in each of the 64 schemas
 * (4 KB of tools/list; docs/mcp.md, "Size of the tool list"), so its form is checked here, where
 * the schema does not show it.
 */
export const WORKSPACE_ID_ARG = z
  .string()
  .refine((id) => /^\d{1,15}$/.test(id), { error: 'workspace_id must be a string of digits (see workspaces_list)' });

/**
 * A tool as tools/list sends it. No `title`: a display name only, which clients replace by the
 * name when it is missing; docs/tools.md shows it.
 */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Partial<ToolDefinition['annotations']>;
  /** The MCP App that renders the tool's results (docs/mcp.md, "Charts inside the assistant"). */
  _meta?: { ui: { resourceUri: string } };
}

/**
 * The hints as tools/list sends them, leaving out what MCP's defaults already say: a write is not
 * read-only by default, and its destructive and idempotent hints, which MCP defines only for tools
 * that are not read-only, go with writes only (idempotent only when true, its default being false).
 * `openWorldHint` is left out: hosts decide whether to ask before a call on readOnlyHint and
 * destructiveHint, and leaving it out of every tool keeps tools/list within its 50 KB.
 */
function listedAnnotations({ readOnlyHint, destructiveHint, idempotentHint }: ToolDefinition['annotations']) {
  return readOnlyHint ? { readOnlyHint } : { destructiveHint, ...(idempotentHint ? { idempotentHint } : {}) };
}

function listed(tool: ToolDefinition, schema: z.ZodObject): ListedTool {
  const app = appOfTool(tool.name);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: shareRepeatedEnums(jsonSchemaOf(schema)),
    outputSchema: outputSchemaOf(),
    annotations: listedAnnotations(tool.annotations),
    ...(app ? { _meta: { ui: { resourceUri: app.uri } } } : {}),
  };
}

const MULTI_INPUT = new Map<ToolDefinition, z.ZodObject>(TOOLS.map((t) => [t, t.input.extend({ workspace_id: WORKSPACE_ID_ARG })]));

/** The arguments schema of a tool; on a multi-workspace connection it also requires workspace_id. */
export function inputSchemaOf(tool: ToolDefinition, multiWorkspace: boolean): z.ZodObject {
  return (multiWorkspace && MULTI_INPUT.get(tool)) || tool.input;
}

const single = TOOLS.map((t) => listed(t, t.input));
const multi = [listed(workspacesListTool, workspacesListTool.input), ...TOOLS.map((t) => listed(t, inputSchemaOf(t, true)))];

/**
 * tools/list: the connection's selection on one page. Multi-workspace connections get
 * workspace_id and workspaces_list (which every selection keeps).
 */
export function toolList(multiWorkspace: boolean, selection: ToolSelection = ALL_TOOLS): ListedTool[] {
  const list = multiWorkspace ? multi : single;
  if (selection === ALL_TOOLS) return list;
  return list.filter((listed) => listed.name === workspacesListTool.name || findTool(listed.name, selection));
}
