/**
 * Unit table for the channel mapping of docs/collection.md section 3: one landing-URL query per
 * rule, with the channel, ad ids and entry meta it must give. No stores involved.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveAttribution } from '../../src/collect/channel.ts';
import { PIXEL_SOURCES } from '../../src/analytics/sources.ts';

const channelOf = (query: string) => deriveAttribution(new URLSearchParams(query)).adv_source;

describe('channel mapping', () => {
  const table: Array<[string, string]> = [
    ['gclid=a', 'google'],
    ['gbraid=a', 'google'],
    ['wbraid=a', 'google'],
    ['fbclid=a', 'facebook'],
    ['fbclid=a&utm_source=instagram', 'instagram'],
    ['fbclid=a&utm_source=IG', 'instagram'],
    ['fbclid=a&utm_source=messenger', 'messenger'],
    ['fbclid=a&utm_source=an', 'audience_network'],
    ['fbclid=a&utm_source=newsletter', 'facebook'],
    ['ttclid=a', 'tiktok'],
    ['msclkid=a', 'microsoft'],
    ['epik=a', 'pinterest'],
    ['ScCid=a', 'snapchat'],
    ['sccid=a', 'snapchat'],
    ['tblci=a', 'taboola'],
    ['obclid=a', 'outbrain'],
    ['ref=anna', 'creator'],
    ['utm_medium=email&utm_source=klaviyo', 'email'],
    ['utm_medium=Newsletter', 'email'],
    ['utm_source=facebook&utm_medium=paid', 'facebook'],
    ['utm_source=bing', 'bing'],
    ['utm_source=chatgpt.com', 'openai'],
    ['utm_source=partner-blog', ''],
    ['', ''],
    ['gclid=a&fbclid=b', 'google'],
    ['ref=anna&utm_medium=email', 'creator'],
    ['utm_source=__proto__', ''],
    ['utm_source=constructor', ''],
    ['utm_source=toString', ''],
    ['utm_source=hasOwnProperty', ''],
    ['fbclid=a&utm_source=__proto__', 'facebook'],
    ['fbclid=a&utm_source=valueOf', 'facebook'],
  ];
  for (const [query, channel] of table) {
    test(`?${query} gives adv_source '${channel}'`, () => {
      assert.equal(channelOf(query), channel);
    });
  }

  test('every derived channel is a value the source filters know', () => {
    for (const [query, channel] of table) {
      if (channel) assert.ok((PIXEL_SOURCES as readonly string[]).includes(channel), `${query} -> ${channel}`);
    }
  });

  test('keeps click ids and the creator code in table order with their values, UTMs in their columns', () => {
    assert.deepEqual(
      deriveAttribution(new URLSearchParams('ref=anna&fbclid=IwAR&utm_source=ig&utm_medium=paid&utm_campaign=spring&utm_content=v1&utm_term=shoes&campaign_id=c9&adset_id=s8&ad_id=a7&asset_group_id=g6')),
      {
        adv_source: 'instagram', adv_campaign_id: 'c9', adv_adgroup_id: 's8', adv_ad_id: 'a7', adv_asset_group_id: 'g6',
        utm_source: 'ig', utm_medium: 'paid', utm_campaign: 'spring', utm_content: 'v1', utm_term: 'shoes',
        entry_meta_keys: ['fbclid', 'ref'], entry_meta_values: ['IwAR', 'anna'],
      },
    );
  });

  test('keeps an A/B test and its variant after the click ids; they name no channel', () => {
    const a = deriveAttribution(new URLSearchParams('ab_variant=B&ab_test=hero&ref=anna'));
    assert.deepEqual([a.adv_source, a.entry_meta_keys, a.entry_meta_values], ['creator', ['ref', 'ab_test', 'ab_variant'], ['anna', 'hero', 'B']]);
    const untagged = deriveAttribution(new URLSearchParams('ab_test=hero&ab_variant=A'));
    assert.deepEqual([untagged.adv_source, untagged.entry_meta_keys, untagged.entry_meta_values], ['', ['ab_test', 'ab_variant'], ['hero', 'A']]);
  });

  test('takes the first present ad-id parameter and keeps an empty click id as an empty value', () => {
    const a = deriveAttribution(new URLSearchParams('gclid=&gad_campaignid=123&utm_id=456'));
    assert.equal(a.adv_source, 'google');
    assert.equal(a.adv_campaign_id, '456');
    assert.deepEqual([a.entry_meta_keys, a.entry_meta_values], [['gclid'], ['']]);
  });
});
