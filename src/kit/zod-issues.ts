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

/** Each problem with where it is. */
export function issueList(error: z.ZodError, wording: IssueWording = {}): Issue[] {
  return (wording.first ? error.issues.slice(0, 1) : error.issues).map((issue) => ({
    path: issue.path.join('.') || (wording.root ?? ''),
    message: issue.message,
  }));
}

/** The problems as one line of text: `field: message` each, joined with `; `. */
export function describeIssues(error: z.ZodError, wording: IssueWording = {}): string {
  const issues = wording.first ? error.issues.slice(0, 1) : error.issues;
  if (issues.length === 0) return wording.fallback ?? 'Invalid input';
  return issues
    .map((issue) => {
      const path = issue.path.join('.') || (wording.root ?? '');
      if (wording.requiredByName && path && isMissing(issue)) return `${path} is required`;
      return wording.bare || !path ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}
