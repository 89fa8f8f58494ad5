import type { z } from 'zod';

/** How a surface words zod's issues; each keeps the wording its contract fixed. */
export interface IssueWording {
  /** Only the first problem; by default every problem, joined with `; `. */
  first?: boolean;
  /** Leave the path out: the schema's messages already name their field (the data API's). */
  bare?: boolean;
  /** What a problem of the whole value is called; without it, its message stands alone. */
  root?: string;
  /** A missing field reads `<field> is required` instead of zod's expected-type message. */
  requiredByName?: boolean;
  /** The message when zod reported no issue. */
  fallback?: string;
}

export interface Issue {
  /** Dotted path to the field, or the wording's `root` (empty without one). */
  path: string;
  message: string;
}

const isMissing = (issue: z.core.$ZodIssue) => issue.code === 'invalid_type' && /received undefined$/.test(issue.message);

function located(error: z.ZodError, wording: IssueWording): (Issue & { missing: boolean })[] {
  return (wording.first ? error.issues.slice(0, 1) : error.issues).map((issue) => {
    const path = issue.path.join('.');
    const missing = wording.requiredByName === true && path !== '' && isMissing(issue);
    return { path: path || (wording.root ?? ''), message: missing ? `${path} is required` : issue.message, missing };
  });
}

/** Each problem with where it is; under `requiredByName` a missing field's message is `<field> is required`. */
export function issueList(error: z.ZodError, wording: IssueWording = {}): Issue[] {
  return located(error, wording).map(({ path, message }) => ({ path, message }));
}

/** The problems as one line of text: `field: message` each (`field is required` alone), joined with `; `. */
export function describeIssues(error: z.ZodError, wording: IssueWording = {}): string {
  const issues = located(error, wording);
  if (issues.length === 0) return wording.fallback ?? 'Invalid input';
  return issues.map(({ path, message, missing }) => (wording.bare || missing || !path ? message : `${path}: ${message}`)).join('; ');
}

/**
 * The `detail` a schema attached to its first issue (`params: {detail}` on a custom issue): help
 * that goes beside a message the contract fixes word for word, instead of into it.
 */
export function issueDetail(error: z.ZodError): string | undefined {
  const first = error.issues[0];
  const detail = first?.code === 'custom' ? (first.params as { detail?: unknown } | undefined)?.detail : undefined;
  return typeof detail === 'string' ? detail : undefined;
}
