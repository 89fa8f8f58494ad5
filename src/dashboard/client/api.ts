/** The dashboard's JSON endpoints, with the session's CSRF token on every write. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

async function parse<T>(response: Response): Promise<T> {
  const body = await response.json().catch(() => ({ message: `The server answered ${response.status}` }));
  if (!response.ok) {
    // A refusal may keep a fixed message and put what is wrong in `detail`: a person reads both.
    const { message, detail } = body as { message?: string; detail?: string };
    throw new ApiError(response.status, message ? (detail ? `${message}: ${detail}` : message) : `Error ${response.status}`);
  }
  return body as T;
}

/** The URL of /dashboard/api/<path> with the given query parameters (empty values left out). */
export function apiUrl(path: string, params: Record<string, string> | URLSearchParams = {}): string {
  const query = new URLSearchParams();
  for (const [k, v] of params instanceof URLSearchParams ? params.entries() : Object.entries(params)) if (v !== '') query.set(k, v);
  const qs = query.toString();
  return `/dashboard/api/${path}${qs ? `?${qs}` : ''}`;
}

/** GET /dashboard/api/<path> with the given query parameters (empty values left out). */
export async function getJson<T>(path: string, params: Record<string, string> | URLSearchParams = {}): Promise<T> {
  return parse<T>(await fetch(apiUrl(path, params), { credentials: 'same-origin' }));
}

export async function sendJson<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'x-csrf-token': csrfToken };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/dashboard/api/${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return parse<T>(response);
}
