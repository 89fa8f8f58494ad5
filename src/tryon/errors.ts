/** Try-on error codes with their HTTP status (docs/try-on.md lists them all). */
export const TRYON_ERRORS = {
  invalid_request: 400,
  invalid_consent: 400,
  origin_not_allowed: 403,
  session_invalid: 401,
  session_expired: 410,
  upload_invalid: 422,
  product_unavailable: 404,
  coverage_stale: 409,
  quota_exceeded: 429,
  job_not_found: 404,
  lead_not_allowed: 409,
  not_found: 404,
  // The service's own storage and media URLs.
  url_expired: 403,
  signature_invalid: 403,
  upload_exists: 412,
  media_not_found: 404,
  // The analytics store (the catalog) ran over its time limit or cannot be reached: try again.
  service_unavailable: 503,
  internal_error: 500,
} as const;

export type TryOnErrorCode = keyof typeof TRYON_ERRORS;

/** Failed-job reasons a client may see; nothing else (no provider text) reaches it. */
export const FAILURE_REASONS = ['input_unreadable', 'content_rejected', 'generation_failed', 'provider_busy', 'session_expired'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export class TryOnError extends Error {
  readonly status: number;
  constructor(
    readonly code: TryOnErrorCode,
    message: string,
  ) {
    super(message);
    this.status = TRYON_ERRORS[code];
  }
}

export const tryOnError = (code: TryOnErrorCode, message: string) => new TryOnError(code, message);
