import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.ts';
import { shownRange } from './filters.ts';
import type { Route } from './router.ts';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

/** Fetches a dashboard endpoint whenever its parameters change; keeps the last answer while loading. */
export function useData<T>(path: string | null, params: URLSearchParams | Record<string, string>): Loaded<T> {
  const key = `${path}?${new URLSearchParams(params as Record<string, string>).toString()}`;
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean; key: string }>({ data: null, error: null, loading: true, key: '' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    getJson<T>(path, params).then(
      (data) => live && setState({ data, error: null, loading: false, key }),
      (error: Error) => live && setState({ data: null, error: error.message, loading: false, key }),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}

/** The view's query string for an endpoint: the URL's parameters (data API names plus workspace). */
export function apiParams(params: URLSearchParams, keep: string[]): URLSearchParams {
  const out = new URLSearchParams();
  for (const k of keep) {
    const v = params.get(k);
    if (v !== null) out.set(k, v);
  }
  return out;
}

/**
 * The query of a ranged endpoint: the URL's parameters in `keep`, and always the range the view
 * shows (its first and last day, resolved here when the URL names none) and the zone those days
 * are in, so that what the server reads is what the date fields say.
 */
export function rangedParams(route: Route, zone: string, keep: string[]): URLSearchParams {
  const out = apiParams(route.params, keep);
  const [start, end] = shownRange(route, zone);
  out.set('start_date', start);
  out.set('end_date', end);
  out.set('timezone', zone);
  return out;
}
