// Storelens custom pixel for Shopify (docs/integrations.md, "Shopify checkout tracking"), served by
// shopify-pixel.ts with its paste instructions on top. It forwards Shopify's customer events to the
// Storelens collector with the same visitor and session as the Storelens theme pixel (both keep
// them under the `_sl` key of the shop's localStorage).
import { randomId, sessionId } from '../pixel/ids.js';

(function () {
  var PIXEL_ID = __PIXEL_ID__;
  var ENDPOINT = __COLLECT_URL__;
  var KEY = '_sl';
  var IDLE_MS = 30 * 60 * 1000;
  var CAMPAIGN = /^(utm_\w+|gclid|gbraid|wbraid|fbclid|ttclid|msclkid|epik|ScCid|sccid|tblci|obclid|ref)$/;
  var timezone = '';
  try { timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) {}
  var signedIn = (init && init.data && init.data.customer && init.data.customer.id) || '';

  function campaignOf(search) {
    var params = new URLSearchParams(search || ''), parts = [];
    params.forEach(function (value, name) { if (CAMPAIGN.test(name)) parts.push(name + '=' + value); });
    return parts.sort().join('&');
  }
  function externalReferrer(referrer, hostname) {
    try { return referrer && new URL(referrer).hostname !== hostname ? referrer : ''; } catch (e) { return ''; }
  }
  // Visitor and session, renewed after 30 idle minutes or on a different campaign click.
  function touch(state, location, referrer, now) {
    var campaign = campaignOf(location.search);
    if (!state.v) state.v = randomId();
    if (!state.s || now - (state.t || 0) > IDLE_MS || (campaign && campaign !== state.c)) {
      state.s = sessionId(now);
      state.e = location.href;
      state.r = externalReferrer(referrer, location.hostname);
      state.c = campaign;
    }
    state.t = now;
    if (signedIn) state.u = String(signedIn);
  }

  // browser.localStorage is asynchronous: events are handled one after the other.
  var chain = Promise.resolve();
  function send(event, item) {
    var doc = (event.context && event.context.document) || {};
    var location = doc.location || {};
    chain = chain.then(function () {
      return browser.localStorage.getItem(KEY);
    }).then(function (text) {
      var state;
      try { state = JSON.parse(text) || {}; } catch (e) { state = {}; }
      var ts = Date.parse(event.timestamp) || Date.now();
      touch(state, location, doc.referrer, ts);
      item.url = location.href;
      item.ts = ts;
      if (item.type === 'conversion' && !item.customer_id && state.u) item.customer_id = state.u;
      var body = JSON.stringify({
        pixel_id: PIXEL_ID, visitor_id: state.v, session_id: state.s, entry_url: state.e, referrer: state.r,
        timezone: timezone, customer_id: state.u || '', sent_at: Date.now(), items: [item]
      });
      return browser.localStorage.setItem(KEY, JSON.stringify(state)).then(function () {
        return fetch(ENDPOINT, { method: 'POST', body: body, keepalive: true, credentials: 'omit' });
      });
    })['catch'](function () {});
  }

  analytics.subscribe('page_viewed', function (event) { send(event, { type: 'event', name: 'pageview' }); });
  analytics.subscribe('product_added_to_cart', function (event) { send(event, { type: 'event', name: 'add_to_cart' }); });
  analytics.subscribe('checkout_started', function (event) { send(event, { type: 'event', name: 'initiate_checkout' }); });
  // Ids of the Web Pixels API may be gid:// URIs: the digits, as the order webhooks store them.
  function digits(id) { return id == null ? '' : String(id).split('/').pop(); }
  function cents(money) { return Math.max(0, Math.round(Number(money && money.amount) * 100) || 0); }
  function lineItems(lines) {
    var out = [];
    for (var i = 0; i < (lines || []).length && out.length < 100; i++) {
      var line = lines[i] || {}, variant = line.variant || {}, product = variant.product || {};
      var item = {
        product_id: digits(product.id), variant_id: digits(variant.id), sku: String(variant.sku || '').slice(0, 500),
        title: String(line.title || product.title || variant.title || '').slice(0, 500),
        quantity: Math.max(0, Math.round(Number(line.quantity)) || 0), unit_price: cents(variant.price)
      };
      // The collector refuses a request with a line that names no product.
      if (item.product_id || item.variant_id || item.sku.trim() || item.title.trim()) out.push(item);
    }
    return out;
  }
  function couponOf(checkout) {
    var applications = checkout.discountApplications || [];
    for (var i = 0; i < applications.length; i++) {
      if (applications[i] && applications[i].type === 'DISCOUNT_CODE' && applications[i].title) return String(applications[i].title).slice(0, 200);
    }
    return '';
  }

  analytics.subscribe('checkout_completed', function (event) {
    var checkout = (event.data && event.data.checkout) || {};
    var order = checkout.order || {};
    var total = checkout.totalPrice || {};
    var customer = order.customer || {};
    send(event, {
      type: 'conversion',
      name: 'purchase',
      // The order id as the orders webhook stores it (digits, also when given as a gid:// URI).
      transaction_id: digits(order.id),
      revenue: cents(total),
      currency: total.currencyCode || checkout.currencyCode || '',
      customer_id: digits(customer.id),
      is_new_customer: customer.isFirstOrder ? 1 : 0,
      coupon_code: couponOf(checkout),
      items: lineItems(checkout.lineItems)
    });
  });
})();
