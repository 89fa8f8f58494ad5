/**
 * Browser code of the MCP Apps host emulation (app-host.ts): the official host side of the
 * protocol, AppBridge from @modelcontextprotocol/ext-apps, driving an app in a sandboxed frame as
 * a desktop host does. The app's HTML gets the policy hosts apply to a resource that declares no
 * domains, as a web host's sandbox proxy sets it.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface ShowApp {
  html: string;
  csp: string;
  args: Record<string, unknown>;
  result: CallToolResult;
  theme: 'light' | 'dark';
}

const BACKGROUND = { light: '#ffffff', dark: '#0b0f17' };
let bridge: AppBridge | null = null;
type HostContext = Parameters<AppBridge['setHostContext']>[0];
let context: HostContext = {};

/** The host page's own colours, as a host in that theme has them. */
function paint(theme: 'light' | 'dark'): void {
  document.documentElement.style.colorScheme = theme;
  document.body.style.background = BACKGROUND[theme];
}

async function showApp({ html, csp, args, result, theme }: ShowApp): Promise<void> {
  paint(theme);
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'MCP App';
  frame.style.cssText = 'width: 100%; border: 0; height: 200px; display: block';
  frame.srcdoc = html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${csp}">`);
  document.body.append(frame);
  context = { theme, displayMode: 'inline', platform: 'web' };
  bridge = new AppBridge(null, { name: 'storelens-test-host', version: '1.0.0' }, {}, { hostContext: context });
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => (bridge!.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
}

function setTheme(theme: 'light' | 'dark'): void {
  paint(theme);
  context = { ...context, theme };
  bridge!.setHostContext(context);
}

/** The host's CSS variables change (styles.variables of the host context). */
function setVariables(variables: Record<string, string>): void {
  context = { ...context, styles: { variables } as HostContext['styles'] };
  bridge!.setHostContext(context);
}

Object.assign(window, { showApp, setTheme, setVariables });
