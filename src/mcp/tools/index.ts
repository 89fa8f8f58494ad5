import { z } from 'zod';
import { abTestingTools } from './ab-testing.ts';
import { adFatigueTools } from './ad-fatigue.ts';
import { aiVisibilityTools } from './ai-visibility.ts';
import { analyticsTools } from './analytics.ts';
import { attributionTools } from './attribution.ts';
import { auditLogTools } from './audit-log.ts';
import { correlationTools } from './correlations.ts';
import { creatorTools } from './creators.ts';
import { dashboardTools } from './dashboards.ts';
import { formTools } from './forms.ts';
import { geoTestingTools } from './geo-testing.ts';
import { healthCenterTools } from './health-center.ts';
import { hourlyTools } from './hourly.ts';
import { journeyTools } from './journeys.ts';
import { labelTools } from './labels.ts';
import { libraryTools } from './library.ts';
import { listTools } from './lists.ts';
import { loyaltyTools } from './loyalty.ts';
import { mapTools } from './map.ts';
import { marketingAngleTools } from './marketing-angles.ts';
import { metadataTools } from './metadata.ts';
import { noteTools } from './notes.ts';
import { offerTools } from './offers.ts';
import { segmentTools } from './segments.ts';
import { surveyTools } from './surveys.ts';
import { topicTools } from './topics.ts';
import { weatherTools } from './weather.ts';
import { workflowTools } from './workflows.ts';
import { workspacesListTool } from './workspaces.ts';
import { jsonSchemaOf, outputSchemaOf } from './json-schema.ts';

export { jsonSchemaOf };
import { ALL_TOOLS, familyOf, isSelected, type ToolSelection } from './selection.ts';
import type { ToolDefinition } from './types.ts';

/** Every tool of the endpoint, in the order tools/list shows them. */
export const TOOLS: readonly ToolDefinition[] = [
  ...metadataTools,
  ...analyticsTools,
  ...attributionTools,
  ...journeyTools,
  ...correlationTools,
  ...hourlyTools,
  ...mapTools,
  ...weatherTools,
  ...adFatigueTools,
  ...geoTestingTools,
  ...abTestingTools,
  ...healthCenterTools,
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

/** Required on every tool of a multi-workspace connection. */
export const WORKSPACE_ID_ARG = z
  .string()
  .regex(/^\d{1,15}$/, { error: 'workspace_id must be a string of digits (see workspaces_list)' })
  .describe('From workspaces_list');

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
}

/**
 * The hints as tools/list sends them, leaving out what MCP's defaults already say: a write is not
 * read-only by default, and its destructive and idempotent hints, which MCP defines only for tools
 * that are not read-only, go with writes only (idempotent only when true, its default being false).
 */
function listedAnnotations({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint }: ToolDefinition['annotations']) {
  return readOnlyHint
    ? { readOnlyHint, openWorldHint }
    : { destructiveHint, ...(idempotentHint ? { idempotentHint } : {}), openWorldHint };
}

function listed(tool: ToolDefinition, schema: z.ZodObject): ListedTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: jsonSchemaOf(schema),
    outputSchema: outputSchemaOf(tool.name),
    annotations: listedAnnotations(tool.annotations),
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
