/** What the collector learns from the request itself: device type, bots, country. */
import { UAParser } from 'ua-parser-js';
import { isBot } from 'ua-parser-js/bot-detection';

export interface Agent {
  /** desktop, mobile or tablet (service-spec.md); TVs, consoles and unknown devices count as desktop. */
  deviceType: string;
  /** Crawlers, fetchers and headless tools that announce themselves; an empty user agent too. */
  bot: boolean;
}

/**
 * Parsing a user agent costs a few hundred microseconds, and a shop's traffic repeats a few
 * hundred distinct strings, so results are kept (the cache is emptied when it grows too large).
 */
const cache = new Map<string, Agent>();
const CACHE_SIZE = 2000;

export function parseAgent(userAgent: string): Agent {
  let agent = cache.get(userAgent);
  if (agent) return agent;
  const type = UAParser(userAgent).device.type;
  agent = {
    deviceType: type === 'mobile' || type === 'tablet' ? type : 'desktop',
    bot: userAgent.trim() === '' || isBot(userAgent),
  };
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(userAgent, agent);
  return agent;
}

/** A two-letter code from the proxy header; placeholders such as XX (unknown) or T1 (Tor) become ''. */
export function countryFrom(header: string | string[] | undefined): string {
  const value = (Array.isArray(header) ? header[0] : header ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(value) && value !== 'XX' ? value : '';
}
