/**
 * Settings (owners): the workspace's time zone, report settings and dashboard defaults, API keys (the secret is shown once),
 * the pixel snippet with the last event received, integrations, the try-on storefront, users.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { sendJson } from '../api.ts';
import { useData } from '../data.ts';
import { DATES, MODELS, SOURCES, WINDOWS, dateLabel } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { label } from '../../../ui/format.ts';
import { KEY_SCOPES } from '../../../kit/vocabulary.ts';
import { Status } from './common.ts';
import { LiftTests } from './lift-tests.ts';

type Settings = Record<string, unknown> & { excluded_transaction_ids: string[]; ignore_sources: string[]; conversion_names: string[] };

const SWITCHES: [string, string][] = [
  ['include_unattributed', 'Include platform orders without a pixel match (as source "unattributed")'],
  ['net_merchandise_revenue', 'Net merchandise revenue (subtract tax and shipping)'],
  ['refund_netting', 'Subtract refunds from revenue'],
  ['new_customer_correction', 'Correct "new customer" from platform orders'],
];

function Saved(props: { message: string | null; error: string | null }) {
  if (props.error) return html`<p class="error" role="alert">${props.error}</p>`;
  return props.message ? html`<p class="ok" role="status">${props.message}</p>` : null;
}

function ReportSettings({ workspace }: { workspace: string }) {
  const answer = useData<{ settings: Settings }>('settings', { workspace });
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const s = answer.data?.settings;
  if (!s) return html`<${Status} loading=${answer.loading} error=${answer.error} />`;
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    const list = (name: string) => String(f.get(name) ?? '').split(/[\r\n,]+/).map((v) => v.trim()).filter(Boolean);
    const changes: Record<string, unknown> = {
      ...Object.fromEntries(SWITCHES.map(([k]) => [k, f.get(k) === 'on'])),
      excluded_transaction_ids: list('excluded_transaction_ids'),
      platform_revenue: f.get('platform_revenue'),
      attribution_model: f.get('attribution_model'),
      attribution_window: Number(f.get('attribution_window')),
      attribution_date: f.get('attribution_date'),
      ignore_sources: SOURCES.filter((src) => f.get(`ignore_${src}`) === 'on'),
      payment_fee_percent: Number(f.get('payment_fee_percent')),
      payment_fee_fixed: Math.round(Number(f.get('payment_fee_fixed')) * 100),
      conversion_names: String(f.get('conversion_names') ?? ''),
    };
    try {
      await sendJson('PUT', `settings?workspace=${workspace}`, changes);
      setResult({ message: 'Saved. Reports use the new settings from now on.', error: null });
      answer.reload();
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  const select = (name: string, options: string[], value: unknown, text: string, show = label) => html`<label>${text}
    <select name=${name}>${options.map((o) => html`<option value=${o} selected=${String(value) === o}>${show(o)}</option>`)}</select></label>`;
  return html`<form class="settings-form" onSubmit=${submit} aria-labelledby="report-settings">
    <h2 id="report-settings">Report settings</h2>
    ${SWITCHES.map(([key, text]) => html`<label class="check"><input type="checkbox" name=${key} checked=${s[key] === true} /> ${text}</label>`)}
    ${select('platform_revenue', ['pixel', 'platform'], s.platform_revenue, 'Revenue from', (v) => (v === 'pixel' ? 'the pixel conversion' : 'the matched platform order'))}
    <label>Conversion names the reports count (comma-separated, * matches any run of characters; * counts every name)
      <input type="text" name="conversion_names" value=${s.conversion_names.join(', ')} /></label>
    <label>Excluded transaction ids (one per line or comma-separated, up to 100,000)
      <textarea name="excluded_transaction_ids" rows="3" value=${s.excluded_transaction_ids.join('\n')}></textarea></label>
    <h3>Dashboard defaults</h3>
    <div class="field-group">
      ${select('attribution_model', MODELS, s.attribution_model, 'Attribution model')}
      ${select('attribution_window', WINDOWS, s.attribution_window, 'Window (days)', (v) => v)}
      ${select('attribution_date', DATES, s.attribution_date, 'Credit on', dateLabel)}
    </div>
    <fieldset class="chips"><legend>Sources ignored by default</legend>
      ${SOURCES.map((src) => html`<label class="check"><input type="checkbox" name=${`ignore_${src}`} checked=${s.ignore_sources.includes(src)} /> ${src}</label>`)}
    </fieldset>
    <div class="field-group">
      <label>Payment fee (%) <input type="number" name="payment_fee_percent" min="0" max="100" step="0.01" value=${s.payment_fee_percent} /></label>
      <label>Payment fee per order <input type="number" name="payment_fee_fixed" min="0" step="0.01" value=${Number(s.payment_fee_fixed) / 100} /></label>
    </div>
    <${Saved} ...${result} />
    <button type="submit">Save settings</button>
  </form>`;
}

/** Every IANA zone the browser knows, offered as the field's suggestions; the server decides what is a zone. */
const ZONES = Intl.supportedValuesOf('timeZone');

/** The workspace's time zone: every view's days are its calendar days, so a change reloads the workspaces. */
function TimeZone({ workspace, zone, onSaved }: { workspace: string; zone: string; onSaved: () => void }) {
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const submit = async (e: Event) => {
    e.preventDefault();
    const timezone = String(new FormData(e.target as HTMLFormElement).get('timezone') ?? '').trim();
    try {
      const saved = await sendJson<{ settings: Settings }>('PUT', `settings?workspace=${workspace}`, { timezone });
      setResult({ message: `Saved. Every view now shows the days of ${String(saved.settings.timezone)}.`, error: null });
      onSaved();
    } catch (err) {
      setResult({ message: null, error: `Not saved: ${(err as Error).message}` });
    }
  };
  return html`<form class="settings-form" onSubmit=${submit} aria-labelledby="zone-title">
    <h2 id="zone-title">Time zone</h2>
    <p class="note">The dashboard's dates are this zone's calendar days (from local midnight), and so are the reports' days unless a request names another zone.</p>
    <label>Time zone (IANA name, such as America/New_York)
      <input type="text" name="timezone" list="time-zones" required maxlength="64" autocomplete="off" value=${zone} /></label>
    <datalist id="time-zones">${ZONES.map((z) => html`<option value=${z} />`)}</datalist>
    <${Saved} ...${result} />
    <button type="submit">Save time zone</button>
  </form>`;
}

function ApiKeys({ workspace }: { workspace: string }) {
  const answer = useData<{ keys: Row[] }>('keys', { workspace });
  const [issued, setIssued] = useState<{ api_key: string; client_secret: string; scopes: string[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    try {
      setIssued(await sendJson('POST', `keys?workspace=${workspace}`, { scopes: KEY_SCOPES.filter((s) => f.get(s) === 'on') }));
      setError(null);
      (e.target as HTMLFormElement).reset();
      answer.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const revoke = async (row: Row) => {
    if (!confirm(`Revoke key ${row.key_prefix}…? Requests with it fail at once.`)) return;
    try {
      await sendJson('DELETE', `keys/${row.id}?workspace=${workspace}`);
      answer.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const columns: Column[] = [
    { key: 'key_prefix', label: 'Key', kind: 'text', display: (r) => `${r.key_prefix}…` },
    { key: 'scopes', label: 'Scopes', kind: 'text', display: (r) => (r.scopes as string[]).join(', ') },
    { key: 'created_at', label: 'Created', kind: 'text', display: (r) => String(r.created_at).slice(0, 16).replace('T', ' ') },
    { key: 'revoked_at', label: 'Status', kind: 'text', display: (r) => (r.revoked_at ? `revoked ${String(r.revoked_at).slice(0, 10)}` : 'Revoke'),
      onOpen: (r) => (r.revoked_at ? undefined : revoke(r)) },
  ];
  return html`<section aria-labelledby="keys-title">
    <h2 id="keys-title">API keys</h2>
    <form class="settings-form" onSubmit=${create}>
      <fieldset class="chips"><legend>Scopes of a new key</legend>
        ${KEY_SCOPES.map((s) => html`<label class="check"><input type="checkbox" name=${s} /> ${s}</label>`)}
      </fieldset>
      <button type="submit">Create key</button>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${issued && html`<div class="secret" role="status">
      <p><strong>Copy the secret now: it is shown only once.</strong></p>
      <label>API key <input type="text" readonly name="new_api_key" value=${issued.api_key} /></label>
      <label>Client secret <input type="text" readonly name="new_client_secret" value=${issued.client_secret} /></label>
      <button type="button" class="secondary" onClick=${() => setIssued(null)}>Done</button>
    </div>`}
    ${answer.data ? html`<${Table} caption="Keys of this workspace" columns=${columns} rows=${answer.data.keys} filename="storelens-keys.csv" />`
      : html`<${Status} loading=${answer.loading} error=${answer.error} />`}
  </section>`;
}

interface Install {
  pixel_id: string;
  snippet: string;
  last_event_at: string | null;
  events_last_24h: number;
  last_conversion_at: string | null;
  order_webhook: { url: string; secret_created: boolean };
  shops: { platform: string; shop: string; webhook_url: string; updated_at: string }[];
  ad_accounts: { platform: string; account_id: string; last_sync_at: string | null; last_sync_error: string | null }[];
}

function InstallAndIntegrations({ workspace }: { workspace: string }) {
  const answer = useData<Install>('install', { workspace });
  const d = answer.data;
  if (!d) return html`<${Status} loading=${answer.loading} error=${answer.error} />`;
  const base = d.order_webhook.url.replace(/\/webhooks\/orders.*$/, '');
  return html`<section aria-labelledby="pixel-title">
      <h2 id="pixel-title">Pixel</h2>
      <label>Paste into every page of the shop
        <textarea readonly rows="3" name="snippet">${d.snippet}</textarea></label>
      <p class="note">Last event received: <strong>${d.last_event_at ? `${d.last_event_at} UTC` : 'none yet'}</strong>${` (${d.events_last_24h} in the last 24 hours). Last conversion: ${d.last_conversion_at ? `${d.last_conversion_at} UTC` : 'none yet'}.`}</p>
    </section>
    <section aria-labelledby="integrations-title">
      <h2 id="integrations-title">Integrations</h2>
      <dl class="facts">
        <dt>Order webhook</dt><dd><code>${d.order_webhook.url}</code>
          ${d.order_webhook.secret_created ? ' (secret set)' : ' (no secret yet)'}: <code>npm run cli -- webhook secret --workspace ${workspace}</code></dd>
        <dt>Shops</dt><dd>${d.shops.length === 0
          ? html`none connected. Shopify sends to <code>${base}/webhooks/shopify</code>, WooCommerce to <code>${base}/webhooks/woocommerce</code>, after <code>npm run cli -- integration set --workspace ${workspace} --platform shopify|woocommerce ...</code>`
          : html`<ul>${d.shops.map((s) => html`<li>${s.platform} <strong>${s.shop}</strong>: webhooks to <code>${s.webhook_url}</code></li>`)}</ul>`}</dd>
        <dt>Ad accounts</dt><dd>${d.ad_accounts.length === 0
          ? html`none connected: <code>npm run cli -- ads connect --workspace ${workspace} --platform meta|google ...</code>, or import the platforms' CSV reports with <code>import --kind ads</code>.`
          : html`<ul>${d.ad_accounts.map((a) => html`<li>${a.platform} <strong>${a.account_id}</strong>: ${a.last_sync_at ? `last pulled ${a.last_sync_at.slice(0, 16).replace('T', ' ')} UTC` : 'not pulled yet'}${a.last_sync_error ? ` (error: ${a.last_sync_error})` : ''}</li>`)}</ul>`}</dd>
      </dl>
    </section>`;
}

interface Storefront {
  configured: boolean;
  origins: string[];
  consent_version: string;
  marketing_version: string;
  session_attempts: number;
  daily_attempts: number;
}

function StorefrontSettings({ workspace }: { workspace: string }) {
  const answer = useData<Storefront>('storefront', { workspace });
  const [result, setResult] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const s = answer.data;
  if (!s) return html`<${Status} loading=${answer.loading} error=${answer.error} />`;
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    try {
      await sendJson('PUT', `storefront?workspace=${workspace}`, {
        origins: String(f.get('origins') ?? '').split(/\s+/).filter(Boolean),
        consent_version: f.get('consent_version'),
        marketing_version: f.get('marketing_version'),
        session_attempts: Number(f.get('session_attempts')),
        daily_attempts: Number(f.get('daily_attempts')),
      });
      setResult({ message: 'Storefront saved.', error: null });
      answer.reload();
    } catch (err) {
      setResult({ message: null, error: (err as Error).message });
    }
  };
  return html`<form class="settings-form" onSubmit=${submit} aria-labelledby="storefront-title">
    <h2 id="storefront-title">Try-on storefront</h2>
    <label>Shop origins (one per line) <textarea name="origins" rows="2">${s.origins.join('\n')}</textarea></label>
    <div class="field-group">
      <label>Consent version <input type="text" name="consent_version" value=${s.consent_version} /></label>
      <label>Marketing version <input type="text" name="marketing_version" value=${s.marketing_version} /></label>
      <label>Attempts per session <input type="number" name="session_attempts" min="1" value=${s.session_attempts} /></label>
      <label>Attempts per day <input type="number" name="daily_attempts" min="1" value=${s.daily_attempts} /></label>
    </div>
    <${Saved} ...${result} />
    <button type="submit">Save storefront</button>
  </form>`;
}

function Members({ workspace }: { workspace: string }) {
  const answer = useData<{ members: Row[] }>('members', { workspace });
  const columns: Column[] = [
    { key: 'email', label: 'Email', kind: 'text' },
    { key: 'role', label: 'Role', kind: 'text' },
    { key: 'scopes', label: 'Scopes', kind: 'text', display: (r) => (r.scopes ? (r.scopes as string[]).join(', ') : r.role === 'owner' ? 'everything' : 'every channel, no profit') },
  ];
  return html`<section aria-labelledby="users-title"><h2 id="users-title" class="visually-hidden">Users</h2>
    ${answer.data ? html`<${Table} caption="Users of this workspace" columns=${columns} rows=${answer.data.members} filename="storelens-users.csv" />`
      : html`<${Status} loading=${answer.loading} error=${answer.error} />`}
    <p class="note">Add users with <code>npm run cli -- user create --email E --password P --workspace ${workspace} [--role viewer]</code>.</p>
  </section>`;
}

export function Settings({ workspace, reloadWorkspaces }: ViewProps) {
  const id = String(workspace.id);
  return html`<div class="settings" key=${id}>
    <${TimeZone} workspace=${id} zone=${workspace.timezone} onSaved=${reloadWorkspaces} />
    <${ReportSettings} workspace=${id} />
    <${ApiKeys} workspace=${id} />
    <${InstallAndIntegrations} workspace=${id} />
    <${StorefrontSettings} workspace=${id} />
    <${LiftTests} workspace=${id} />
    <${Members} workspace=${id} />
  </div>`;
}
