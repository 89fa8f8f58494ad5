/**
 * The dashboard's views, in the order of the navigation: the one list a view is added to. The
 * server serves the page at each path (pages.ts) and the browser's router draws the view of the
 * path (client/app.ts maps each path to its component; the type checker names a path left out).
 * No imports, so both the server and the browser bundle read it.
 */
export const VIEWS = [
  { path: '/', title: 'Overview' },
  { path: '/report', title: 'Attribution' },
  { path: '/conversions', title: 'Conversions' },
  { path: '/profit', title: 'Profit' },
  { path: '/products', title: 'Products' },
  { path: '/books', title: 'Storelens vs shop' },
  { path: '/customers', title: 'Customers' },
  { path: '/live', title: 'Live' },
  { path: '/surveys', title: 'Surveys' },
  { path: '/forms', title: 'Forms' },
  { path: '/saved', title: 'Saved reports' },
  { path: '/geo', title: 'Geo tests' },
  { path: '/workflows', title: 'Workflows' },
  { path: '/loyalty', title: 'Loyalty' },
  { path: '/creators', title: 'Creators' },
  { path: '/ai-visibility', title: 'AI visibility' },
  { path: '/settings', title: 'Settings', ownerOnly: true },
] as const satisfies readonly { path: `/${string}`; title: string; ownerOnly?: boolean }[];

export type ViewPath = (typeof VIEWS)[number]['path'];
