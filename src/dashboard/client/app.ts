/** The dashboard shell: sign-in, header with navigation and workspace switcher, and the current view. */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, getJson, sendJson, setCsrfToken } from './api.ts';
import { linkTo, navigate, useRoute, withParams, type Route } from './router.ts';
import { setCurrency } from '../../ui/format.ts';
import { Overview } from './views/overview.ts';
import { Report } from './views/report.ts';
import { Conversions } from './views/conversions.ts';
import { Profit } from './views/profit.ts';
import { Products } from './views/products.ts';
import { Books } from './views/books.ts';
import { Customers } from './views/customers.ts';
import { Live } from './views/live.ts';
import { Settings } from './views/settings.ts';
import { Surveys } from './views/surveys.ts';
import { Forms } from './views/forms.ts';
import { SavedReports } from './views/saved-reports.ts';
import { GeoTests } from './views/geo-tests.ts';
import { Workflows } from './views/workflows.ts';
import { Loyalty } from './views/loyalty.ts';
import { Creators } from './views/creators.ts';
import { AiVisibility } from './views/ai-visibility.ts';
import type { ViewProps, Workspace } from './views/props.ts';
import { VIEWS, type ViewPath } from '../views.ts';

interface Me {
  email: string;
  csrf_token: string;
  workspaces: Workspace[];
}

/** Each view's component; its path, title and whether only owners see it come from the list of views. */
const COMPONENTS: Record<ViewPath, (p: ViewProps) => unknown> = {
  '/': Overview,
  '/report': Report,
  '/conversions': Conversions,
  '/profit': Profit,
  '/products': Products,
  '/books': Books,
  '/customers': Customers,
  '/live': Live,
  '/surveys': Surveys,
  '/forms': Forms,
  '/saved': SavedReports,
  '/geo': GeoTests,
  '/workflows': Workflows,
  '/loyalty': Loyalty,
  '/creators': Creators,
  '/ai-visibility': AiVisibility,
  '/settings': Settings,
};

/** A view of the list, with `ownerOnly` false where the list leaves it out. */
const ownerOnly = (view: (typeof VIEWS)[number]): boolean => 'ownerOnly' in view && view.ownerOnly;

function SignIn(props: { onSignedIn: (me: Me) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    setBusy(true);
    try {
      props.onSignedIn(await sendJson<Me>('POST', 'sign-in', { email: form.get('email'), password: form.get('password') }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="sign-in">
    <form onSubmit=${submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Storelens</h1>
      <label>Email <input type="email" name="email" autocomplete="username" required /></label>
      <label>Password <input type="password" name="password" autocomplete="current-password" required /></label>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
  </main>`;
}

function Header(props: { me: Me; route: Route; workspace: Workspace; onSignOut: () => void }) {
  const { me, route, workspace } = props;
  // On a phone the views fold into a menu (CSS shows the toggle only there); choosing one folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [route.path]);
  const current = VIEWS.find((v) => v.path === route.path)?.title ?? 'Views';
  return html`<header class="top">
    <a class="brand" href=${linkTo('/', route)} onClick=${(e: Event) => { e.preventDefault(); navigate('/', new URLSearchParams(linkTo('/', route).split('?')[1] ?? '')); }}>Storelens</a>
    <button type="button" class="secondary menu-toggle" aria-expanded=${menuOpen} aria-controls="views-nav"
      onClick=${() => setMenuOpen(!menuOpen)}>${menuOpen ? 'Close menu' : `Menu: ${current}`}</button>
    <nav aria-label="Views" id="views-nav" class=${menuOpen ? 'open' : ''}>
      ${VIEWS.filter((v) => !ownerOnly(v) || workspace.role === 'owner').map((v) => {
        const href = linkTo(v.path, route);
        return html`<a href=${href} aria-current=${route.path === v.path ? 'page' : undefined}
          onClick=${(e: MouseEvent) => { if (e.ctrlKey || e.metaKey) return; e.preventDefault(); navigate(v.path, new URLSearchParams(href.split('?')[1] ?? '')); }}>${v.title}</a>`;
      })}
    </nav>
    <div class="account">
      <label>Workspace
        <select name="workspace" onChange=${(e: Event) => withParams(route, { workspace: (e.target as HTMLSelectElement).value, offset: null })}>
          ${me.workspaces.map((w) => html`<option value=${w.id} selected=${w.id === workspace.id}>${w.name}${w.role === 'viewer' ? ' (viewer)' : ''}</option>`)}
        </select>
      </label>
      <span class="zone" data-testid="time-zone" title="Every date is a day of this zone, the workspace's time zone setting">Time zone: ${workspace.timezone}</span>
      <span class="who">${me.email}</span>
      <button type="button" class="secondary" onClick=${props.onSignOut}>Sign out</button>
    </div>
  </header>`;
}

export function App() {
  const route = useRoute();
  const [me, setMe] = useState<Me | null | 'signed-out'>(null);
  const loadMe = () => getJson<Me>('me').then(
    (m) => {
      setCsrfToken(m.csrf_token);
      setMe(m);
    },
    (error) => setMe(error instanceof ApiError && error.status === 401 ? 'signed-out' : null),
  );
  useEffect(() => {
    if (document.getElementById('app')?.dataset.signedIn === 'false') return setMe('signed-out');
    void loadMe();
  }, []);
  if (me === null) return html`<p class="loading">Loading…</p>`;
  if (me === 'signed-out') {
    return html`<${SignIn} onSignedIn=${(m: Me) => { setCsrfToken(m.csrf_token); setMe(m); }} />`;
  }
  const signOut = async () => {
    await sendJson('POST', 'sign-out').catch(() => {});
    setMe('signed-out');
  };
  const wanted = route.params.get('workspace');
  const workspace = wanted === null ? me.workspaces[0] : me.workspaces.find((w) => String(w.id) === wanted);
  if (!workspace) {
    return html`<main class="page"><p class="error" role="alert">${me.workspaces.length ? 'You do not have access to this workspace.' : 'Your account has no workspace yet.'}</p>
      ${me.workspaces.length > 0 && html`<a href=${`/?workspace=${me.workspaces[0]!.id}`}>Go to ${me.workspaces[0]!.name}</a>`}</main>`;
  }
  setCurrency(workspace.currency);
  const view = VIEWS.find((v) => v.path === route.path) ?? VIEWS[0]!;
  const allowed = !ownerOnly(view) || workspace.role === 'owner';
  document.title = `${view.title} · ${workspace.name} · Storelens`;
  return html`<${Header} me=${me} route=${route} workspace=${workspace} onSignOut=${signOut} />
    <main class="page" id="main">
      <h1>${view.title}</h1>
      ${allowed ? html`<${COMPONENTS[view.path]} route=${route} workspace=${workspace} reloadWorkspaces=${loadMe} />` : html`<p class="error" role="alert">Only owners of this workspace can see its settings.</p>`}
    </main>
    <footer class="credits">Visitor cities: <a href="https://db-ip.com">IP Geolocation by DB-IP</a> (CC BY 4.0)</footer>`;
}
