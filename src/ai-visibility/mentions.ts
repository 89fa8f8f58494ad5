/**
 * Which tracked brands an assistant's answer names, in the order it first names them. A brand is
 * found case-insensitively as a whole word (so "Acme" is not found in "Acmeplex").
 */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function firstIndex(answer: string, brand: string): number {
  const match = new RegExp(`(?<![\\p{L}\\p{N}])${escape(brand)}(?![\\p{L}\\p{N}])`, 'iu').exec(answer);
  return match ? match.index : -1;
}

export interface Mentions {
  brand_mentioned: boolean;
  /** 1-based place of the brand among the tracked brands the answer names; null when not named. */
  position: number | null;
  /** Competitors named, in the order the answer first names them. */
  competitors_mentioned: string[];
}

export function findMentions(answer: string, brand: string, competitors: string[]): Mentions {
  const named = [brand, ...competitors]
    .map((name, order) => ({ name, order, at: firstIndex(answer, name) }))
    .filter((entry) => entry.at >= 0)
    .sort((a, b) => a.at - b.at || a.order - b.order);
  const place = named.findIndex((entry) => entry.order === 0);
  return {
    brand_mentioned: place >= 0,
    position: place >= 0 ? place + 1 : null,
    competitors_mentioned: named.filter((entry) => entry.order > 0).map((entry) => entry.name),
  };
}
