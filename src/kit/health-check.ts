/**
 * One named check of `/healthz` (docs/operations.md). `degraded`: the service still answers with a
 * fallback; `failing`: requests that need it cannot be served. Any module may offer one; the web
 * kit (src/http/health.ts) runs them.
 */
export type CheckDetail = string | Record<string, unknown>;
export type CheckResult = { state: 'ok'; detail?: CheckDetail } | { state: 'degraded' | 'failing'; detail: CheckDetail };

export interface HealthCheck {
  /** The key under `checks` in the answer. */
  name: string;
  run(): Promise<CheckResult> | CheckResult;
}
