/**
 * The URL is the state of every view: its path picks the view, its query string holds the data
 * API's parameters plus `workspace`. Changing a control pushes a new URL, so every view is a link.
 */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  path: string;
  params: URLSearchParams;
}

const listeners = new Set<() => void>();

function current(): Route {
  return { path: location.pathname, params: new URLSearchParams(location.search) };
}

export function navigate(path: string, params: URLSearchParams, replace = false): void {
  const qs = params.toString();
  const url = `${path}${qs ? `?${qs}` : ''}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The same path with some parameters changed (an empty or null value removes one). */
export function withParams(route: Route, changes: Record<string, string | null>, path = route.path): void {
  const params = new URLSearchParams(route.params);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') params.delete(k);
    else params.set(k, v);
  }
  navigate(path, params);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Parameters that carry over when the user switches views (filters shared by every view). */
export const SHARED_PARAMS = ['workspace', 'start_date', 'end_date', 'attribution_model', 'attribution_window', 'attribution_date', 'source', 'exclude_source'];

export function linkTo(path: string, route: Route): string {
  const params = new URLSearchParams();
  for (const k of SHARED_PARAMS) {
    const v = route.params.get(k);
    if (v) params.set(k, v);
  }
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ''}`;
}
