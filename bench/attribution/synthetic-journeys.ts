/**
 * Synthetic shoppers whose channel effects are known, for measuring how far each attribution model
 * lands from the truth (bench/suites/attribution-truth.ts, docs/attribution.md "How close each model
 * comes"). Nothing here imports the service: the truth is computed from the generator's own
 * exposures and lifts, independently of the code under test.
 *
 * The world: each shopper is exposed to each channel with the channel's reach, at most once; a
 * channel that acts early comes before the others, one that acts late after them. The chance to buy
 * is the base rate plus the lift of every channel seen (additive, never above 1), so a channel's
 * true incremental conversions are its lift times the number of shoppers it reached, whatever else
 * they saw. A scenario may add an intent channel: a touch that follows the decision to buy (brand
 * search, a click in the order e-mail) and adds nothing, the case where correlation is not effect.
 * A scenario may also make exposure depend on intent: a share of shoppers were going to buy more
 * often anyway (their own base rate) and a channel reaches them more often (its own reach among
 * them), so who saw the channel differs from who did not before the channel did anything.
 */

export interface ChannelEffect {
  /** Raw channel stored on the session (`adv_source`). */
  channel: string;
  /** The reporting source the report names it by. */
  source: string;
  /** Added chance to buy for a shopper who saw it. */
  lift: number;
  /** Share of shoppers it reaches. */
  reach: number;
  position: 'early' | 'any' | 'late';
}

export interface Scenario {
  name: string;
  description: string;
  shoppers: number;
  /** Chance to buy without any channel. */
  base: number;
  channels: ChannelEffect[];
  /** A touch that follows the decision: seen by this share of buyers and of non-buyers, no lift. */
  intent?: { channel: string; source: string; buyers: number; others: number };
  /** Shoppers with intent: this share of them, with their own base rate and each named channel's reach among them. */
  keen?: { share: number; base: number; reach: Record<string, number> };
}

export interface Journey {
  /** Raw channels in time order. */
  touches: string[];
  converted: boolean;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'even',
    description: 'three channels at any position, lifts 4, 2 and 6 points',
    shoppers: 20_000,
    base: 0.02,
    channels: [
      { channel: 'facebook', source: 'meta', lift: 0.04, reach: 0.5, position: 'any' },
      { channel: 'google', source: 'google', lift: 0.02, reach: 0.5, position: 'any' },
      { channel: 'tiktok', source: 'tiktok', lift: 0.06, reach: 0.3, position: 'any' },
    ],
  },
  {
    name: 'opener and closer',
    description: 'tiktok only first (8 points), meta anywhere (4), google only last (1), email only last (0)',
    shoppers: 20_000,
    base: 0.02,
    channels: [
      { channel: 'tiktok', source: 'tiktok', lift: 0.08, reach: 0.5, position: 'early' },
      { channel: 'facebook', source: 'meta', lift: 0.04, reach: 0.4, position: 'any' },
      { channel: 'google', source: 'google', lift: 0.01, reach: 0.6, position: 'late' },
      { channel: 'email', source: 'email', lift: 0, reach: 0.3, position: 'late' },
    ],
  },
  {
    name: 'intent closer',
    description: 'meta first (6 points), tiktok anywhere (3); google search follows 80 % of decisions to buy and adds nothing',
    shoppers: 20_000,
    base: 0.03,
    channels: [
      { channel: 'facebook', source: 'meta', lift: 0.06, reach: 0.6, position: 'early' },
      { channel: 'tiktok', source: 'tiktok', lift: 0.03, reach: 0.3, position: 'any' },
    ],
    intent: { channel: 'google', source: 'google', buyers: 0.8, others: 0.05 },
  },
  {
    name: 'five channels',
    description: 'five channels anywhere, lifts 5, 3, 2, 1 and 0 points, 35 % reach each',
    shoppers: 20_000,
    base: 0.01,
    channels: [
      { channel: 'facebook', source: 'meta', lift: 0.05, reach: 0.35, position: 'any' },
      { channel: 'google', source: 'google', lift: 0.03, reach: 0.35, position: 'any' },
      { channel: 'tiktok', source: 'tiktok', lift: 0.02, reach: 0.35, position: 'any' },
      { channel: 'pinterest', source: 'pinterest', lift: 0.01, reach: 0.35, position: 'any' },
      { channel: 'email', source: 'email', lift: 0, reach: 0.35, position: 'any' },
    ],
  },
  {
    name: 'skewed reach',
    description: 'google reaches 80 % and adds 1 point, tiktok reaches 10 % and adds 8, meta 40 % and 3, at any position',
    shoppers: 20_000,
    base: 0.02,
    channels: [
      { channel: 'google', source: 'google', lift: 0.01, reach: 0.8, position: 'any' },
      { channel: 'tiktok', source: 'tiktok', lift: 0.08, reach: 0.1, position: 'any' },
      { channel: 'facebook', source: 'meta', lift: 0.03, reach: 0.4, position: 'any' },
    ],
  },
  {
    name: 'idle closer',
    description: 'meta (5 points) and tiktok (3) anywhere; email reaches half the shoppers, always last, and adds nothing',
    shoppers: 20_000,
    base: 0.02,
    channels: [
      { channel: 'facebook', source: 'meta', lift: 0.05, reach: 0.4, position: 'any' },
      { channel: 'tiktok', source: 'tiktok', lift: 0.03, reach: 0.4, position: 'any' },
      { channel: 'email', source: 'email', lift: 0, reach: 0.5, position: 'late' },
    ],
  },
  {
    name: 'keen shoppers',
    description: 'a fifth of shoppers buy at 10 % anyway and google retargets 70 % of them (20 % of the rest); google adds 1 point, meta 4',
    shoppers: 20_000,
    base: 0.02,
    channels: [
      { channel: 'facebook', source: 'meta', lift: 0.04, reach: 0.4, position: 'any' },
      { channel: 'google', source: 'google', lift: 0.01, reach: 0.2, position: 'late' },
    ],
    keen: { share: 0.2, base: 0.1, reach: { google: 0.7 } },
  },
];

/** The scenarios whose exposure is random (no intent touch, no keen shoppers): what observational data can untangle. */
export const randomExposure = (scenario: Scenario): boolean => !scenario.intent && !scenario.keen;

/** A seeded generator (mulberry32): the same scenario gives the same shoppers on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export interface Generated {
  journeys: Journey[];
  /** Shoppers each reporting source reached through its effect (not through intent). */
  reached: Map<string, number>;
}

export function generate(scenario: Scenario, shoppers = scenario.shoppers, seed = 1): Generated {
  const random = seededRandom(seed);
  const reached = new Map<string, number>();
  const journeys: Journey[] = [];
  for (let i = 0; i < shoppers; i++) {
    const keen = scenario.keen && random() < scenario.keen.share ? scenario.keen : null;
    const seen = scenario.channels.filter((c) => random() < (keen?.reach[c.source] ?? c.reach));
    for (const c of seen) reached.set(c.source, (reached.get(c.source) ?? 0) + 1);
    const at = (position: ChannelEffect['position']) => shuffled(seen.filter((c) => c.position === position), random).map((c) => c.channel);
    const touches = [...at('early'), ...at('any'), ...at('late')];
    const chance = Math.min(1, (keen?.base ?? scenario.base) + seen.reduce((sum, c) => sum + c.lift, 0));
    const converted = random() < chance;
    const intent = scenario.intent;
    if (intent && random() < (converted ? intent.buyers : intent.others)) touches.push(intent.channel);
    journeys.push({ touches, converted });
  }
  return { journeys, reached };
}

/**
 * The true share of each reporting source in the conversions channels caused: its lift times the
 * shoppers it reached, over the sum of those. Sources with no effect (and the intent channel) are 0.
 */
export function trueShares(scenario: Scenario, reached: Map<string, number>): Map<string, number> {
  const incremental = new Map<string, number>();
  for (const c of scenario.channels) incremental.set(c.source, c.lift * (reached.get(c.source) ?? 0));
  if (scenario.intent) incremental.set(scenario.intent.source, 0);
  const total = [...incremental.values()].reduce((a, b) => a + b, 0);
  return new Map([...incremental].map(([source, n]) => [source, total > 0 ? n / total : 0]));
}

/**
 * What a perfect holdout of `source` measures: the share of the conversions it touched that it
 * caused (its lift times the shoppers it reached, over the buyers whose path shows it; 0 for the
 * intent touch, which causes nothing). The number an experiment hands `lift-test add`.
 */
export function trueIncrementalShare(scenario: Scenario, generated: Generated, source: string): number {
  const channel = scenario.channels.find((c) => c.source === source);
  const raw = channel?.channel ?? scenario.intent?.channel;
  const touched = generated.journeys.filter((j) => j.converted && raw !== undefined && j.touches.includes(raw)).length;
  const caused = (channel?.lift ?? 0) * (generated.reached.get(source) ?? 0);
  return touched > 0 ? Math.min(1, caused / touched) : 0;
}

/** The source an experiment should test in a scenario observational data cannot untangle, else null. */
export function experimentSource(scenario: Scenario): string | null {
  if (scenario.intent) return scenario.intent.source;
  const keen = scenario.keen && Object.keys(scenario.keen.reach)[0];
  return keen ?? null;
}

/** Mean absolute error of `shares` against `truth` over the truth's sources (a missing source counts as 0). */
export function meanAbsoluteError(truth: Map<string, number>, shares: Map<string, number>): number {
  const errors = [...truth].map(([source, t]) => Math.abs((shares.get(source) ?? 0) - t));
  return errors.reduce((a, b) => a + b, 0) / errors.length;
}
