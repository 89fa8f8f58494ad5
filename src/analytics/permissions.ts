import { META_FAMILY, PIXEL_SOURCES, channelsOf, NON_AD_SOURCES } from './sources.ts';

/**
 * What a key may see, derived from its scopes (decisions.md section 4).
 * `channels` is null for admin keys: no channel restriction at all.
 */
export interface Visibility {
  admin: boolean;
  profit: boolean;
  channels: ReadonlySet<string> | null;
}

const SCOPE_CHANNELS: Record<string, readonly string[]> = {
  'read:meta': META_FAMILY,
  'read:microsoft': channelsOf('microsoft'),
  'read:bing': channelsOf('microsoft'),
  'read:creators': channelsOf('creator'),
  'read:creator': channelsOf('creator'),
  'read:influencer': channelsOf('creator'),
  'read:organic': channelsOf('organic'),
};

export function visibilityOf(scopes: readonly string[]): Visibility {
  const admin = scopes.includes('admin:admin');
  if (admin) return { admin: true, profit: true, channels: null };
  const channels = new Set<string>();
  for (const scope of scopes) {
    if (!scope.startsWith('read:') || scope === 'read:profit') continue;
    const granted = SCOPE_CHANNELS[scope] ?? [scope.slice('read:'.length)];
    for (const channel of granted) channels.add(channel);
  }
  return { admin: false, profit: scopes.includes('read:profit'), channels };
}

export function seesChannel(visibility: Visibility, channel: string): boolean {
  return visibility.channels === null || visibility.channels.has(channel);
}

/** A key may name a source in a filter only when it sees every channel the source stands for. */
export function canRequest(visibility: Visibility, source: string): boolean {
  return channelsOf(source).every((channel) => seesChannel(visibility, channel));
}

export function seesAnyPixelData(visibility: Visibility): boolean {
  return visibility.channels === null || visibility.channels.size > 0;
}

/** Channels the key sees that carry ad rows; null for admin keys (all of them). */
export function visibleAdChannels(visibility: Visibility): string[] | null {
  if (visibility.channels === null) return null;
  return [...visibility.channels].filter((c) => c !== '' && !NON_AD_SOURCES.has(c));
}

/** Every pixel-side source value this key could name, for listings. */
export function requestableSources(visibility: Visibility): string[] {
  return PIXEL_SOURCES.filter((s) => canRequest(visibility, s));
}

/** Valid scope strings: admin:admin, read:profit, or read:<source>. */
export function isValidScope(scope: string): boolean {
  if (scope === 'admin:admin' || scope === 'read:profit') return true;
  if (!scope.startsWith('read:')) return false;
  const name = scope.slice('read:'.length);
  return name in { creators: 1, influencer: 1 } || (PIXEL_SOURCES as readonly string[]).includes(name);
}
