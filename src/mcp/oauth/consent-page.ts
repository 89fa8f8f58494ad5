/**
 * The consent page of a multi-workspace connection: the person adds one row per workspace with
 * that workspace's API key and client secret, then connects. Plain HTML with one small script
 * (adding rows), allowed by a per-response nonce.
 */
import { escapeHtml as escape } from '../../kit/html.ts';
import { isClientIdUrl } from './client-documents.ts';

export interface ConsentView {
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  resource: string;
  nonce: string;
  /** Rows to show again after an error (keys only; secrets are never echoed). */
  rows: { apiKey: string }[];
  error: string;
}

function row(index: number, apiKey: string): string {
  return `<fieldset class="workspace">
    <legend>Workspace ${index + 1}</legend>
    <label>API key <input name="workspace_key" autocomplete="off" required value="${escape(apiKey)}"></label>
    <label>Client secret <input name="workspace_secret" type="password" autocomplete="off" required></label>
  </fieldset>`;
}

/** Where the browser goes after Connect, as the person should check it: scheme and host. */
function redirectTarget(redirectUri: string): string {
  try {
    const url = new URL(redirectUri);
    return url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host}`;
  } catch {
    return redirectUri;
  }
}

/** CSP source of the redirect target: the consent form's POST ends in a redirect there. */
function redirectSource(redirectUri: string): string {
  try {
    const url = new URL(redirectUri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {
    return '';
  }
}

/**
 * Who vouches for the name: a client with a metadata document published it on the host of its
 * client_id, the one part of the request a person can judge; a registered client chose it alone.
 */
function clientLine(view: ConsentView): string {
  const name = `<strong id="client-name">${escape(view.clientName)}</strong>`;
  const asks = 'asks to read analytics and create drafts in your Storelens workspaces.';
  if (!isClientIdUrl(view.clientId)) return `<p>${name} (a name the app chose itself) ${asks}</p>`;
  return `<p>${name} ${asks}</p>
<p class="target">The app describes itself at <strong id="client-host">${escape(new URL(view.clientId).host)}</strong>
(<span id="client-id">${escape(view.clientId)}</span>): its name is what that site says.</p>`;
}

export function consentPage(view: ConsentView): { body: string; headers: Record<string, string> } {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escape(value)}">`;
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect Storelens workspaces</title>
<style nonce="${view.nonce}">
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #1d232b; }
  fieldset { border: 1px solid #c9d1d9; border-radius: 6px; margin: 0 0 1rem; padding: .75rem 1rem; }
  label { display: block; margin: .4rem 0; } input:not([type=hidden]) { display: block; width: 100%; padding: .4rem; box-sizing: border-box; }
  .target { background: #fff8e1; border: 1px solid #e0c97a; padding: .6rem 1rem; border-radius: 6px; }
  .target strong { font-size: 1.1em; word-break: break-all; } #client-id { word-break: break-all; }
  .error { background: #fdecea; border: 1px solid #e5a29b; padding: .6rem 1rem; border-radius: 6px; }
  button { padding: .5rem 1rem; margin-right: .5rem; }
</style>
</head>
<body>
<h1>Connect Storelens workspaces</h1>
${clientLine(view)}
<p class="target">After you connect, the access is handed to <strong id="redirect-origin">${escape(redirectTarget(view.redirectUri))}</strong>.
Connect only if that is the app you are setting up.</p>
<p>Add each workspace with an API key and its client secret (workspace settings). The connection gets the permissions
each key has now.</p>
${view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : ''}
<form method="post" action="/oauth/consent" id="consent">
  ${hidden('client_id', view.clientId)}
  ${hidden('redirect_uri', view.redirectUri)}
  ${hidden('code_challenge', view.codeChallenge)}
  ${hidden('state', view.state)}
  ${hidden('resource', view.resource)}
  <div id="workspaces">${view.rows.map((r, i) => row(i, r.apiKey)).join('\n')}</div>
  <button type="button" id="add-workspace">Add another workspace</button>
  <button type="submit" id="connect">Connect</button>
</form>
<template id="row-template">${row(0, '')}</template>
<script nonce="${view.nonce}">
  document.getElementById('add-workspace').addEventListener('click', () => {
    const list = document.getElementById('workspaces');
    const node = document.getElementById('row-template').content.firstElementChild.cloneNode(true);
    node.querySelector('legend').textContent = 'Workspace ' + (list.children.length + 1);
    list.appendChild(node);
  });
</script>
</body>
</html>`;
  return {
    body,
    headers: {
      'content-security-policy': `default-src 'none'; style-src 'nonce-${view.nonce}'; script-src 'nonce-${view.nonce}'; form-action 'self' ${redirectSource(view.redirectUri)}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  };
}
