/**
 * Which conversions a figure counts (docs/attribution.md, "Counted conversion names"): the names a
 * request's own `name` filter gives, else the workspace's `conversion_names` setting, `*` matching
 * any run of characters. The report, the tools, the dashboard and the workflows all count through
 * here; reconciliation always compares the shop's orders with purchases alone.
 */
import type { WorkspaceSettings } from '../store/app/settings.ts';
import { likePattern, type Conditions } from './sql.ts';

/** The name the pixel (and the shop imports' matching) gives an order's conversion. */
export const PURCHASE = 'purchase';

/** The names a figure counts: the request's own name filter when it has one, else the setting's. */
export function countedNames(settings: Pick<WorkspaceSettings, 'conversion_names'>, requested?: string | null): string[] {
  return requested === undefined || requested === null ? [...settings.conversion_names] : [requested];
}

/** Every conversion counts: the list holds the bare `*`. */
export const countsEveryName = (names: readonly string[]) => names.includes('*');

const asRegExp = (pattern: string) => new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '*' ? '.*' : `\\${c}`))}$`, 's');

/** Whether conversions named `name` are among the counted ones (the same rule as `addCountedNames`). */
export function countsName(names: readonly string[], name: string): boolean {
  return names.some((pattern) => asRegExp(pattern).test(name));
}

/**
 * Adds the condition that `column` is one of the counted names: exact names as a bound list,
 * patterns as bound LIKE patterns (every character but `*` literal). Nothing when `*` is counted.
 */
export function addCountedNames(where: Conditions, column: string, names: readonly string[]): void {
  if (countsEveryName(names)) return;
  const exact = names.filter((name) => likePattern(name) === null);
  const patterns = names.map(likePattern).filter((like): like is string => like !== null);
  const clauses = [
    ...(exact.length ? [`${column} IN {counted_names:Array(String)}`] : []),
    ...(patterns.length ? [`arrayExists(p -> ${column} LIKE p, {counted_patterns:Array(String)})`] : []),
  ];
  where.add(clauses.length === 1 ? clauses[0]! : `(${clauses.join(' OR ')})`, {
    ...(exact.length ? { counted_names: exact } : {}),
    ...(patterns.length ? { counted_patterns: patterns } : {}),
  });
}
