/**
 * The view side of the MCP Apps postMessage protocol (extension `io.modelcontextprotocol/ui`,
 * spec 2026-01-26): JSON-RPC 2.0 with the host window. The app asks `ui/initialize`, confirms
 * with `ui/notifications/initialized`, then receives the tool's input and result and any change of
 * the host context (theme); it reports its size so the host can fit the frame. docs/mcp.md says why
 * this is written here rather than taken from @modelcontextprotocol/ext-apps.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** The part of the spec's HostContext the apps use: the theme and the host's CSS variables. */
export interface HostContext {
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined> };
}

/** What the app does with the host's messages; the tool's arguments are not needed, as its result says what it covers. */
export interface HostEvents {
  context(context: HostContext): void;
  result(result: CallToolResult): void;
}

interface Message {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

const post = (message: Omit<Message, 'jsonrpc'>) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');

/** Connects to the host; `events` receive what it sends. Resolves once the handshake is done. */
export function connectToHost(appInfo: { name: string; version: string }, events: HostEvents): Promise<void> {
  let nextId = 1;
  const pending = new Map<string | number, { resolve(value: unknown): void; reject(error: Error): void }>();

  window.addEventListener('message', (event: MessageEvent<Message>) => {
    const message = event.data;
    if (event.source !== window.parent || message?.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined) {
      // Requests of the host (ping, ui/resource-teardown) need nothing kept: they are acknowledged.
      const known = message.method === 'ping' || message.method === 'ui/resource-teardown';
      post(known ? { id: message.id, result: {} } : { id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
      return;
    }
    const params = message.params ?? {};
    if (message.method === 'ui/notifications/tool-result') events.result(params as unknown as CallToolResult);
    else if (message.method === 'ui/notifications/host-context-changed') events.context(params as HostContext);
  });

  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ id, method, params });
    });

  return request('ui/initialize', { protocolVersion: APPS_PROTOCOL_VERSION, appInfo, appCapabilities: { availableDisplayModes: ['inline'] } }).then(
    (answer) => {
      events.context((answer as { hostContext?: HostContext }).hostContext ?? {});
      post({ method: 'ui/notifications/initialized', params: {} });
      reportSize();
    },
  );
}

/** Tells the host the document's size whenever it changes, so that an inline frame fits its content. */
function reportSize(): void {
  let last = '';
  const send = () => {
    const size = { width: Math.ceil(document.documentElement.scrollWidth), height: Math.ceil(document.documentElement.scrollHeight) };
    const key = `${size.width}x${size.height}`;
    if (key === last) return;
    last = key;
    post({ method: 'ui/notifications/size-changed', params: size });
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}
