/** What the collector learns from the request itself: device type, bots, country. */
import { UAParser } from 'ua-parser-js';
import { isBot } from 'ua-parser-js/bot-detection';

/** desktop, mobile or tablet (service-spec.md); TVs, consoles and unknown devices count as desktop. */
export function deviceType(userAgent: string): string {
  const type = UAParser(userAgent).device.type;
  return type === 'mobile' || type === 'tablet' ? type : 'desktop';
}

/** Crawlers, fetchers and headless tools that announce themselves; an empty user agent too. */
export function isBotAgent(userAgent: string): boolean {
  return userAgent.trim() === '' || isBot(userAgent);
}

/** A two-letter code from the proxy header; placeholders such as XX (unknown) or T1 (Tor) become ''. */
export function countryFrom(header: string | string[] | undefined): string {
  const value = (Array.isArray(header) ? header[0] : header ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(value) && value !== 'XX' ? value : '';
}
