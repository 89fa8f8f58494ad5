import { seesEveryChannel, seesEveryOutput, seesOutput, type Visibility } from './permissions.ts';
import { PIXEL_SOURCES, channelsOfAll, sourceGroupMembers } from './sources.ts';
import { LIST_ITEM_KIND, NOTE_KIND } from '../store/app/lists-and-notes.ts';
import { EXECUTION_KIND } from '../store/app/workflows.ts';
import type { ToolObject } from '../store/app/tool-objects.ts';

/**
 * Which stored objects carry channel data, and which channels (docs/security.md, "Indirect
 * leaks"). A key reads such an object only when it sees every channel it carries, and writes one
 * only then; an object of another kind (a topic, a list itself) carries none. Text that a person
 * or an assistant typed is not read for channel names: only what the service can tie to a channel
 * counts (an ad id, a source in a saved filter or a segment rule). Outputs (notes, list rows,
 * workflow executions) are shown by the scope recorded with them instead (OUTPUT_KINDS below).
 */

/** The member of an object's data where the tool that stores it keeps the raw channels of the ads it names. */
export const CHANNELS = '_channels';

type Data = Record<string, unknown>;
type Carried = readonly string[] | 'unknown';

const kept = (data: Data): readonly string[] | undefined => (Array.isArray(data[CHANNELS]) ? (data[CHANNELS] as string[]) : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : []);
/** Source names of the channel vocabulary among `values`, a source group as all its members; other text names no channel. */
const sourceChannels = (values: string[]) =>
  channelsOfAll(values.flatMap((v): readonly string[] => sourceGroupMembers(v) ?? [v]).filter((v) => (PIXEL_SOURCES as readonly string[]).includes(v) || v === 'influencer'));

/** What one kind of object carries; objects stored before their channels were kept carry 'unknown'. */
const CARRIERS = new Map<string, (data: Data) => Carried>([
  // A creative's labels: the creative's ad platform.
  ['asset_label', (data) => kept(data) ?? 'unknown'],
  ['marketing_angle', (data) => kept(data) ?? (strings(data.linked_creatives).length ? 'unknown' : [])],
  // Saved analytics.query arguments: the sources they filter on or leave out.
  ['custom_report', (data) => {
    const filters = (data.filters ?? {}) as Data;
    return sourceChannels([...strings(filters.source), ...strings(filters.ignore_sources)]);
  }],
  // Segment rules on the landing channel.
  ['segment', (data) => sourceChannels((Array.isArray(data.rules) ? (data.rules as Data[]) : [])
    .filter((rule) => rule?.field === 'adv_source')
    .flatMap((rule) => strings(rule.value)))],
]);

/**
 * Kinds whose objects are outputs: numbers a workflow or a key read, recorded with the scope they
 * were read with (a list row copied from the ads, with the ads' channels) and shown by the one
 * rule of permissions.ts (seesOutput).
 */
const OUTPUT_KINDS: ReadonlySet<string> = new Set([NOTE_KIND, LIST_ITEM_KIND, EXECUTION_KIND]);

export const isOutput = (kind: string): boolean => OUTPUT_KINDS.has(kind);

/** Whether some objects of this kind may be hidden from this key (else every one is shown as stored). */
export const mayHide = (visibility: Visibility, kind: string): boolean =>
  OUTPUT_KINDS.has(kind) ? !seesEveryOutput(visibility) : visibility.channels !== null && CARRIERS.has(kind);

/**
 * Whether a key may see an object: an unrestricted key sees every one; a restricted key sees one
 * whose channels it all sees, and never one stored before its channels were kept.
 */
export function visibleTo(visibility: Visibility, kind: string, data: Data): boolean {
  if (visibility.channels === null) return true;
  const carried = CARRIERS.get(kind)?.(data) ?? [];
  return carried !== 'unknown' && seesEveryChannel(visibility, carried);
}

/** Whether a key may see a stored object: an output by its recorded scope, any other by the channels it carries. */
export function visibleObject(visibility: Visibility, kind: string, object: Pick<ToolObject<unknown>, 'data' | 'scope'>): boolean {
  if (OUTPUT_KINDS.has(kind)) return seesOutput(visibility, object.scope);
  return visibleTo(visibility, kind, object.data as Data);
}
