/**
 * The permission rules of docs/api.md ("Keys and permissions"), written down a second time, on
 * their own, as the oracle of the property tests: which raw channels a set of scopes sees. The
 * service's code is not used here, so a mistake there cannot hide itself.
 */
import fc from 'fast-check';

export const META = ['meta', 'facebook', 'instagram', 'messenger', 'audience_network', 'threads'];
const SINGLE = ['google', 'tiktok', 'pinterest', 'snapchat', 'openai', 'outbrain', 'taboola', 'whatsapp', 'email'];

/** Raw channels behind each readable scope (`read:<source>`, `read:creators`). */
const SCOPE_CHANNELS = new Map<string, string[]>([
  ['read:meta', META],
  ...META.slice(1).map((c): [string, string[]] => [`read:${c}`, [c]]),
  ...SINGLE.map((c): [string, string[]] => [`read:${c}`, [c]]),
  ['read:microsoft', ['microsoft', 'bing']],
  ['read:bing', ['microsoft', 'bing']],
  ['read:creator', ['creator', 'influencer']],
  ['read:creators', ['creator', 'influencer']],
  ['read:organic', ['', 'organic']],
]);

/** Scopes that add no channel. */
export const NO_CHANNEL_SCOPES = ['read:profit', 'write:drafts'];
export const CHANNEL_SCOPES = [...SCOPE_CHANNELS.keys()];

/**
 * Scopes whose channel sets are disjoint and together cover every channel: the reporting sources
 * (meta, microsoft, creator and organic stand for their whole families).
 */
export const ATOMS = ['read:meta', 'read:microsoft', 'read:creators', 'read:organic', ...SINGLE.map((c) => `read:${c}`)];

/** The reporting source of a raw channel, as report rows name it. */
export function reportingSource(channel: string): string {
  if (META.includes(channel)) return 'meta';
  if (channel === 'bing') return 'microsoft';
  if (channel === 'influencer') return 'creator';
  if (channel === '') return 'organic';
  return channel;
}

export interface KeyModel {
  scopes: string[];
  admin: boolean;
  profit: boolean;
  /** null: every channel. */
  channels: Set<string> | null;
}

export function keyModel(scopes: string[]): KeyModel {
  const admin = scopes.includes('admin:admin');
  const channels = admin ? null : new Set(scopes.flatMap((s) => SCOPE_CHANNELS.get(s) ?? []));
  return { scopes, admin, profit: admin || scopes.includes('read:profit'), channels };
}

/** Whether the key sees a raw channel (`organic` and '' are the same untagged traffic). */
export function sees(key: KeyModel, channel: string): boolean {
  if (key.channels === null) return true;
  return key.channels.has(channel === 'organic' ? '' : channel);
}

/** A source named in a filter is allowed when the key sees every channel it stands for. */
export function mayRequest(key: KeyModel, source: string): boolean {
  const channels = SCOPE_CHANNELS.get(source === 'creator' ? 'read:creators' : `read:${source}`) ?? [source];
  return channels.every((c) => sees(key, c));
}

/** Raw channels a source filter stands for. */
export function channelsOfSource(source: string): string[] {
  return SCOPE_CHANNELS.get(source === 'creator' ? 'read:creators' : `read:${source}`) ?? [source];
}

export const seesAnyChannel = (key: KeyModel) => key.channels === null || key.channels.size > 0;

/** Any set of known scopes (admin included now and then). */
export const anyScopes = fc.subarray([...CHANNEL_SCOPES, ...NO_CHANNEL_SCOPES, 'admin:admin'], { minLength: 0, maxLength: 6 });

/** A set of atoms plus scopes without channels: its complement is again such a set. */
export const atomScopes = fc.record({
  atoms: fc.subarray(ATOMS),
  extra: fc.subarray(NO_CHANNEL_SCOPES),
});

/** The atoms a key does not hold. */
export const complementOf = (atoms: string[]) => ATOMS.filter((a) => !atoms.includes(a));
