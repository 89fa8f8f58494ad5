import { AccessDenied } from '../kit/errors.ts';
import type { ReadScope } from '../store/app/tool-objects.ts';
import { KEY_SCOPE_SOURCES } from '../kit/vocabulary.ts';
import { channelsOf, channelsOfAll, NON_AD_SOURCES, sourceGroupMembers } from './sources.ts';

/**
 * Keys, scopes and what they allow (docs/api.md, "Keys and permissions"). Every access check of
 * the data API and the tool endpoint is decided here; the surfaces only turn a refusal into
 * their own error shape.
 */

/**
 * What a key may see, derived from its scopes.
 * `channels` is null for admin keys: no channel restriction at all.
 */
export interface Visibility {
  admin: boolean;
  profit: boolean;
  /** Tool-endpoint writes: admin:admin or write:drafts. */
  write: boolean;
  channels: ReadonlySet<string> | null;
}

export const NO_PIXEL_ACCESS = 'You do not have access to pixel data';
export const NO_ADS_ACCESS = 'You do not have access to ads data';
export const NO_SOURCE_ACCESS = 'You do not have access to the requested sources';
export const NO_PROFIT_ACCESS = 'You do not have access to profit metrics';
export const NO_WRITE_ACCESS = 'Writing needs a key with the write:drafts or admin:admin scope';
export const NO_AUDIT_ACCESS = 'The audit log needs a key with the admin:admin scope';

/** Every scope a key may hold (KEY_SCOPES), with the raw channels it adds. */
const SCOPE_CHANNELS: ReadonlyMap<string, readonly string[]> = new Map(
  KEY_SCOPE_SOURCES.map(([scope, source]): [string, readonly string[]] => [scope, source === null ? [] : channelsOf(source)]),
);

export function isValidScope(scope: string): boolean {
  return SCOPE_CHANNELS.has(scope);
}

/** Scopes outside the known list grant nothing (keys are only created with known ones). */
export function visibilityOf(scopes: readonly string[]): Visibility {
  if (scopes.includes('admin:admin')) return { admin: true, profit: true, write: true, channels: null };
  const channels = new Set<string>();
  for (const scope of scopes) for (const channel of SCOPE_CHANNELS.get(scope) ?? []) channels.add(channel);
  return { admin: false, profit: scopes.includes('read:profit'), write: scopes.includes('write:drafts'), channels };
}

export function seesChannel(visibility: Visibility, channel: string): boolean {
  return visibility.channels === null || visibility.channels.has(channel);
}

/**
 * Whether a key may read something that carries data of these raw channels (a stored object: a
 * list row copied from the ads, a creative's labels, a saved report's filters): only when it sees
 * every one of them.
 */
export function seesEveryChannel(visibility: Visibility, channels: readonly string[]): boolean {
  return channels.every((channel) => seesChannel(visibility, channel));
}

/** A key may name a source in a filter only when it sees every channel the source stands for. */
export function canRequest(visibility: Visibility, source: string): boolean {
  return channelsOf(source).every((channel) => seesChannel(visibility, channel));
}

/**
 * A source filter with its groups (SOURCE_GROUPS) replaced by their members the key may read: a
 * group asks for what the key sees of it. A group of which the key sees nothing stays all its
 * members, so the filter is refused as any unreadable source is.
 */
export function expandSourceGroups(names: readonly string[], visibility: Visibility): string[] {
  const expanded = names.flatMap((name) => {
    const members = sourceGroupMembers(name);
    if (!members) return [name];
    const readable = members.filter((source) => canRequest(visibility, source));
    return readable.length ? readable : members;
  });
  return [...new Set(expanded)];
}

/**
 * Order-level data (platform orders, the reconciliation) is not split by channel: only a reader
 * that sees every channel (an admin:admin key, an owner, a viewer without channel scopes) may read it.
 */
export function requireEveryChannel(visibility: Visibility, what: string): void {
  if (visibility.channels !== null) throw new AccessDenied(noEveryChannelAccess(what));
}

export const noEveryChannelAccess = (what: string) => `You do not have access to ${what}: it needs an admin:admin key`;

export function seesAnyPixelData(visibility: Visibility): boolean {
  return visibility.channels === null || visibility.channels.size > 0;
}

/** Why a pixel-side read (events, sessions, conversions, report, tools) filtered by `requested` is refused; null when it is allowed. */
export function pixelRefusal(visibility: Visibility, requested: readonly string[] | undefined): string | null {
  if (!seesAnyPixelData(visibility)) return NO_PIXEL_ACCESS;
  return sourceRefusal(visibility, requested);
}

/** Why a filter naming `requested` is refused (a source the key cannot fully see); null when allowed. */
function sourceRefusal(visibility: Visibility, requested: readonly string[] | undefined): string | null {
  return requested?.some((s) => !canRequest(visibility, s)) ? NO_SOURCE_ACCESS : null;
}

/**
 * The raw channels an allowed pixel-side read may return: the requested ones, or all the key
 * sees. Null means unrestricted (admin key, no filter).
 */
export function pixelChannels(visibility: Visibility, requested: readonly string[] | undefined): string[] | null {
  if (requested?.length) return channelsOfAll(requested);
  return visibility.channels === null ? null : [...visibility.channels];
}

/** Channels the key sees that carry ad rows; null for admin keys (all of them). */
export function visibleAdChannels(visibility: Visibility): string[] | null {
  if (visibility.channels === null) return null;
  return [...visibility.channels].filter((c) => c !== '' && !NON_AD_SOURCES.has(c));
}

/** Why an ads read filtered by `requested` is refused; null when it is allowed. */
export function adsRefusal(visibility: Visibility, requested: readonly string[] | undefined): string | null {
  const visible = visibleAdChannels(visibility);
  if (visible !== null && visible.length === 0) return NO_ADS_ACCESS;
  return sourceRefusal(visibility, requested);
}

export type { ReadScope };

/** The whole store, profit included: what a person reads, and how an output stored before its scope was recorded is read. */
export const WHOLE_STORE: ReadScope = { channels: null, profit: true };

/** Order-level data (survey responses and the orders they answer for): every channel, no profit figure. */
export const ORDER_LEVEL: ReadScope = { channels: null, profit: false };

/** Everything a key or a member reads, as the scope of what it writes. */
export function readScopeOf(visibility: Visibility): ReadScope {
  return { channels: visibility.channels === null ? null : [...visibility.channels].sort(), profit: visibility.profit };
}

/** What a run within `scope` may read, as a key of those channels (a workflow runs so). */
export function visibilityWithin(scope: ReadScope): Visibility {
  return { admin: scope.channels === null && scope.profit, profit: scope.profit, write: false, channels: scope.channels === null ? null : new Set(scope.channels) };
}

/**
 * The one rule for outputs of stored objects: a reader sees one only when it could read every
 * number in it. A reader without any data read (write:drafts alone) sees none; a whole-store
 * output needs a reader of every channel (channels null); a narrower one every channel it was
 * read with; a profit figure needs profit.
 */
export function seesOutput(visibility: Visibility, scope: ReadScope | null): boolean {
  const read = scope ?? WHOLE_STORE;
  if (!seesAnyPixelData(visibility)) return false;
  if (read.profit && !visibility.profit) return false;
  if (read.channels === null) return visibility.channels === null;
  return seesEveryChannel(visibility, read.channels);
}

/** Whether a reader sees every output whatever its scope (no filtering needed). */
export const seesEveryOutput = (visibility: Visibility): boolean => visibility.channels === null && visibility.profit;

/** Refuses a reader that may not see an output of this scope (a whole survey's responses, order-level data). */
export function requireOutput(visibility: Visibility, scope: ReadScope, what: string): void {
  if (!seesOutput(visibility, scope)) throw new AccessDenied(noOutputAccess(what));
}

export const noOutputAccess = (what: string) => `You do not have access to ${what}: they need access to every channel`;
