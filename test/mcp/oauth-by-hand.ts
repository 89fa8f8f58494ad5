import assert from 'node:assert/strict';
import crypto from 'node:crypto';

/** The OAuth endpoints of a listening server, driven by hand the way a connector drives them. */
export function oauthByHand(base: string) {
  const form = (url: string, fields: Record<string, string>) =>
    fetch(`${base}${url}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

  const register = (redirectUris: string[], extra: Record<string, unknown> = {}) =>
    fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Hand client', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', ...extra }),
    });

  /** Registration, the consent form with one workspace's key and a code; not yet exchanged. */
  async function authorize(callback: string, resource: string, workspaceHeaders: Record<string, string>) {
    const clientId = (await (await register([callback])).json()).client_id as string;
    const verifier = crypto.randomBytes(32).toString('base64url');
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
    const consent = await form('/oauth/consent', {
      client_id: clientId, redirect_uri: callback, code_challenge: challenge, state: '', resource,
      workspace_key: workspaceHeaders['x-api-key']!, workspace_secret: workspaceHeaders['client-secret']!,
    });
    assert.equal(consent.status, 302);
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const exchange = () =>
      form('/token', { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: callback, ...(resource ? { resource } : {}) });
    return { clientId, code, exchange };
  }

  /** A whole connection; `resource` is what the client asks the token for ('' = none). */
  async function connect(callback: string, resource: string, workspaceHeaders: Record<string, string>) {
    const { clientId, exchange } = await authorize(callback, resource, workspaceHeaders);
    const token = await exchange();
    assert.equal(token.status, 200);
    return { clientId, ...((await token.json()) as { access_token: string; refresh_token: string }) };
  }

  return { form, register, authorize, connect };
}
