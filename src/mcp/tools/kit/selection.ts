import { InvalidInput } from '../../../kit/errors.ts';
import type { ToolDefinition } from './tool.ts';

/**
 * Which tools one connection sees (docs/mcp.md, "Narrowing the tool set"): the URL's
 * `?tools=family,family` keeps those families (the part of a tool's name before the dot) and
 * `?read_only=1` keeps the read tools. A tool outside the selection is unknown to the connection.
 */
export interface ToolSelection {
  families: ReadonlySet<string> | null;
  readOnly: boolean;
}

export const ALL_TOOLS: ToolSelection = { families: null, readOnly: false };

export const familyOf = (toolName: string): string => toolName.split('.')[0]!;

export function isSelected(tool: ToolDefinition, selection: ToolSelection): boolean {
  if (selection.readOnly && !tool.annotations.readOnlyHint) return false;
  return !selection.families || selection.families.has(familyOf(tool.name));
}

const single = (value: unknown): string | undefined => (Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : undefined);

/** Reads the selection from the query string; `families` lists every family that exists. Throws InvalidInput. */
export function parseSelection(query: Record<string, unknown>, families: readonly string[]): ToolSelection {
  const tools = single(query.tools);
  const readOnly = single(query.read_only);
  let selected: Set<string> | null = null;
  if (tools !== undefined) {
    const names = tools.split(',').map((n) => n.trim()).filter(Boolean);
    if (names.length === 0) throw new InvalidInput(`tools must name at least one tool family: ${families.join(', ')}`);
    const unknown = names.filter((n) => !families.includes(n));
    if (unknown.length) {
      // The message names what was wrong, but never echoes more than a few short names.
      const shown = unknown.slice(0, 5).map((n) => (n.length > 40 ? `${n.slice(0, 40)}...` : n));
      throw new InvalidInput(`Unknown tool family: ${shown.join(', ')}${unknown.length > 5 ? ', ...' : ''}. Tool families: ${families.join(', ')}`);
    }
    selected = new Set(names);
  }
  if (readOnly !== undefined && !['0', '1', 'true', 'false'].includes(readOnly)) {
    throw new InvalidInput('read_only must be 1 or 0');
  }
  return { families: selected, readOnly: readOnly === '1' || readOnly === 'true' };
}
