import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { publicBase } from '../public-base.ts';
import type { ClientDocuments } from './client-documents.ts';
import { consentPage, type ConsentView } from './consent-page.ts';
import { consentClient, grantWorkspaces, issueConsentCode } from './consent.ts';
import { issuerOf } from './metadata.ts';

/**
 * `POST /oauth/consent`: the consent form of `/authorize` sent back with the workspaces to connect;
 * answers the redirect with the code, or the form again with what was wrong.
 */
export async function consentRoutes(app: FastifyInstance, { documents }: { documents: ClientDocuments }): Promise<void> {
  const { db } = app.stores;
  // No CSRF token: a consent only succeeds with the workspace keys and secrets typed into the form,
  // which a cross-site attacker does not have; the redirect goes only to a URI of the client.
  app.post('/oauth/consent', async (request, reply) => {
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const field = (name: string) => form.get(name) ?? '';
    const redirectUri = field('redirect_uri');
    const client = await consentClient(db, documents, field('client_id'), redirectUri);
    if (!client) {
      return reply.code(400).type('text/plain').send('Unknown client or redirect_uri: start the connection again from your app.');
    }
    if (!field('code_challenge')) return reply.code(400).type('text/plain').send('Missing code_challenge: start the connection again from your app.');
    const keys = form.getAll('workspace_key').map((k) => k.trim());
    const secrets = form.getAll('workspace_secret').map((s) => s.trim());
    const view: ConsentView = {
      clientId: client.client_id,
      clientName: client.client_name ?? client.client_id,
      redirectUri,
      codeChallenge: field('code_challenge'),
      state: field('state'),
      resource: field('resource'),
      nonce: crypto.randomBytes(16).toString('base64'),
      rows: keys.length ? keys.map((apiKey) => ({ apiKey })) : [{ apiKey: '' }],
      error: '',
    };
    const granted = await grantWorkspaces(db, keys, secrets);
    if ('refusal' in granted) {
      const page = consentPage({ ...view, error: granted.refusal });
      return reply.code(400).headers(page.headers).type('text/html; charset=utf-8').send(page.body);
    }
    const code = await issueConsentCode(db, { ...view, grants: granted.grants });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (view.state) target.searchParams.set('state', view.state);
    target.searchParams.set('iss', issuerOf(publicBase(app.config, request)));
    return reply.code(302).header('location', target.href).header('cache-control', 'no-store').send();
  });
}
