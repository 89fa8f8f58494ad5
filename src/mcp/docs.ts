import { TOOLS, toolList } from './tools/index.ts';
import { jsonSchemaOf } from './tools/kit/json-schema.ts';
import { workspacesListTool } from './tools/families/workspaces.ts';
import { DESCRIBED_ONCE, type ToolDefinition } from './tools/kit/tool.ts';
import { PIXEL_SOURCES, SOURCE_GROUP_NAMES } from '../analytics/sources.ts';
import { appOfTool } from './apps/index.ts';

/**
 * docs/tools.md, generated from the tool registry (the same zod schemas tools/list serves), so
 * the reference cannot drift from the code. `npm run docs:tools` rewrites the file; a test checks
 * that the committed file is current.
 */

type JsonSchema = {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
};

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' | ');
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeOf).join(' or ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
  if (schema.type === 'object' && typeof schema.additionalProperties === 'object') return `object of ${typeOf(schema.additionalProperties)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  return schema.format ? `${type} (${schema.format})` : type;
}

function limits(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`${schema.minimum ?? ''}..${schema.maximum ?? ''}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined) parts.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? 'any'} items`);
  if (schema.maxLength !== undefined) parts.push(`up to ${schema.maxLength} chars`);
  if (schema.default !== undefined) parts.push(`default \`${JSON.stringify(schema.default)}\``);
  return parts.join('; ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rows(properties: Record<string, JsonSchema>, required: string[], prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const path = `${prefix}${name}`;
    out.push(`| \`${path}\` | ${cell(typeOf(prop))} | ${required.includes(name) ? 'yes' : 'no'} | ${cell(limits(prop))} | ${cell(prop.description ?? DESCRIBED_ONCE[name] ?? '')} |`);
    const nested = prop.type === 'array' ? prop.items : prop;
    if (nested?.type === 'object' && nested.properties) {
      out.push(...rows(nested.properties, nested.required ?? [], `${path}${prop.type === 'array' ? '[]' : ''}.`));
    }
    for (const variant of nested?.anyOf ?? nested?.oneOf ?? []) {
      if (variant.type === 'object' && variant.properties) out.push(...rows(variant.properties, variant.required ?? [], `${path}${prop.type === 'array' ? '[]' : ''}.`));
    }
  }
  return out;
}

/** The fields of a result as its tool declares them, nested ones in braces: `a, b[] {c, d}`. */
function fieldsOf(schema: JsonSchema): string {
  return Object.entries(schema.properties ?? {})
    .map(([name, member]) => {
      const item = member.type === 'array' ? member.items : member;
      const inner = item?.properties && Object.keys(item.properties).length ? ` {${fieldsOf(item)}}` : '';
      return `${name}${member.type === 'array' ? '[]' : ''}${inner}`;
    })
    .join(', ');
}

function section(tool: ToolDefinition): string {
  const schema = jsonSchemaOf(tool.input) as JsonSchema;
  const kind = tool.annotations.readOnlyHint ? 'read' : 'write';
  const table = Object.keys(schema.properties ?? {}).length
    ? ['| argument | type | required | limits | meaning |', '|---|---|---|---|---|', ...rows(schema.properties!, schema.required ?? [])].join('\n')
    : 'No arguments.';
  const result = fieldsOf(jsonSchemaOf(tool.output) as JsonSchema);
  const app = appOfTool(tool.name);
  const shown = app ? `\n\nApp: \`${app.uri}\` (${app.description}; docs/mcp.md, "Charts inside the assistant")` : '';
  return `### \`${tool.name}\` (${kind}): ${tool.annotations.title}\n\n${tool.description}\n\n${table}\n\nResult: \`{${result}}\`\n\nData: ${tool.dataSource}${shown}\n`;
}

/** Size of the tools/list result as sent (compact JSON), in KB of 1,000 bytes. */
const listSize = (multiWorkspace: boolean, selection?: Parameters<typeof toolList>[1]) =>
  `${(Buffer.byteLength(JSON.stringify({ tools: toolList(multiWorkspace, selection) })) / 1000).toFixed(1)} KB`;

export function renderToolsMarkdown(): string {
  const reads = TOOLS.filter((t) => t.annotations.readOnlyHint);
  const writes = TOOLS.filter((t) => !t.annotations.readOnlyHint);
  const analytics = { families: new Set(['metadata', 'analytics', 'attribution']), readOnly: true };
  return `# Tool reference

Generated by \`npm run docs:tools\` from the tool registry (\`src/mcp/tools/\`); do not edit by hand.
Every tool takes one JSON object of arguments; unknown arguments are refused (-32602). Ids are
strings. Dates are \`YYYY-MM-DD\` calendar days of the \`timezone\` argument (an IANA name; left out, the
workspace's \`timezone\` setting; \`date_to\` is included); a range left out is the last 7 days up to today. Attribution
arguments left out take the saved dashboard settings. \`limit\`, \`offset\`, \`date_from\` and \`date_to\` are
described once, in the server's instructions, not in each schema of \`tools/list\`; the tables below show
their meaning. A source filter (\`source\`, \`ignore_sources\`) names sources and groups:
${[...PIXEL_SOURCES, ...SOURCE_GROUP_NAMES].map((name) => `\`${name}\``).join(', ')} (also listed by \`metadata.list_schema\`). "Basis: report" in a description: revenue and
conversions as the report credits them (\`analytics.query\`'s numbers; the result names the attribution);
"Basis: orders": each order counted whole, by place, hour, path or code, with no model. Conversions
have names (\`purchase\`, \`lead\`, ...): the "Basis: report" tools, \`conversions.get-recent\`,
\`hourly.get-data\`, \`map.get-data\`, \`weather.get-data\`, \`geo-testing.get-candidates\`,
\`ab-testing.get-results\`, \`offers.get-opportunities\`, \`journeys.get-data\` and \`customers.get-ltv\` count the names
of the workspace setting \`conversion_names\` (default \`*\`, every name) unless the call names one
(\`filters.conversion_name\`, \`name\`), and say which they counted:
\`settings_applied.conversion_names\` (\`attribution.conversion_names\` in results that name their
attribution, \`customers.get-ltv\`'s \`conversion_names\`); \`reconciliation.get-data\` stands orders beside purchases alone; the other tools count
every name. \`metadata.list_schema\` lists a range's names with their counts. Results
come as \`structuredContent\` plus the same JSON as one text item; "Result" lists their fields (\`[]\` marks a list; a stored object such as a
note or an offer has its \`id\`, its fields, \`created_at\` and \`updated_at\`); "Data" says where a
tool's data come from. A refusal the caller
can act on is a result with \`isError: true\` and \`structuredContent.error = {code, message}\`
(\`permission_denied\`, \`not_found\`, \`invalid_request\`, \`conflict\`). See docs/mcp.md for the
protocol and authentication.

Size of the \`tools/list\` result, input and output schemas included (docs/mcp.md, "Size of the tool
list"): ${TOOLS.length} tools, ${listSize(false)} on an API-key connection, ${listSize(true)} on an OAuth
connection; narrowed with \`?tools=metadata,analytics,attribution&read_only=1\`: ${listSize(false, analytics)}.

On a multi-workspace (OAuth) connection every tool below also takes a required \`workspace_id\`
(an id from \`workspaces_list\`), and one more tool exists:

${section(workspacesListTool)}
## Read tools (${reads.length})

${reads.map(section).join('\n')}
## Write tools (${writes.length})

Writes only add objects or change the named fields; nothing is deleted, and every write is in
\`audit-log.get-log\`.

${writes.map(section).join('\n')}`;
}
