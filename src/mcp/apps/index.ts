/**
 * The MCP Apps of the tool endpoint (extension `io.modelcontextprotocol/ui`, docs/mcp.md "Charts
 * inside the assistant"): each is a `ui://` resource, one self-contained HTML document, named by
 * its tool's `_meta.ui.resourceUri`. The documents carry no data and are the same for every
 * caller; the host hands them the tool's structuredContent.
 */
import { appDocument } from './bundle.ts';

export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export interface AppDefinition {
  /** The view of client/main.ts that renders the tool's result. */
  view: string;
  uri: string;
  title: string;
  description: string;
  tool: string;
}

const app = (view: string, tool: string, title: string, description: string): AppDefinition => ({ view, uri: `ui://storelens/${view}`, title, description, tool });

export const APPS: readonly AppDefinition[] = [
  app('report', 'analytics.query', 'Report', 'analytics.query as the dashboard shows it: totals (with their change), a chart of periods, the rows as a table'),
  app('attribution', 'attribution.get-data', 'Attribution models', 'attribution.get-data as the dashboard table of the models side by side'),
  app('explain', 'attribution.explain', 'Why an order was credited', "attribution.explain as the order's touchpoints and the dashboard's why panel: each model's shares, the removal effects"),
  app('books', 'reconciliation.get-data', 'Storelens vs shop', "reconciliation.get-data as a chart of the shop's and the report's revenue per day and the table of every difference"),
  app('customers', 'customers.get-ltv', 'Customers and lifetime value', 'customers.get-ltv as the dashboard\'s cohort table, a heat map of repeat rate and LTV per row'),
];

const BY_TOOL = new Map(APPS.map((a) => [a.tool, a]));
const BY_URI = new Map(APPS.map((a) => [a.uri, a]));

/** The app that renders a tool's results, if it has one. */
export const appOfTool = (tool: string): AppDefinition | undefined => BY_TOOL.get(tool);

/** An app by its resource URI. */
export const appAt = (uri: string): AppDefinition | undefined => BY_URI.get(uri);

/** A resources/list entry. */
export const listedApp = (a: AppDefinition) => ({ uri: a.uri, name: a.view, title: a.title, description: a.description, mimeType: APP_MIME_TYPE });

/** A resources/read answer: the document, and no border from the host, as the app draws its own cards. */
export async function readApp(a: AppDefinition) {
  return { contents: [{ uri: a.uri, mimeType: APP_MIME_TYPE, text: await appDocument(a.view, a.title), _meta: { ui: { prefersBorder: false } } }] };
}
