// Storelens pixel (docs/collection.md section 1). Plain ES2017, no dependencies but its ids; served
// bundled and minified.
import { randomId, sessionId } from './ids.js';

(function (w, d) {
  var script = d.currentScript || d.querySelector('script[data-pixel-id]');
  if (!script || w.__storelensLoaded) return;
  w.__storelensLoaded = true;

  var pixelId = script.getAttribute('data-pixel-id');
  var endpoint = new URL('/collect', script.src).href;
  var surveyEndpoint = new URL('/collect/survey', script.src).href;
  var KEY = '_sl';
  var IDLE_MS = 30 * 60 * 1000;
  var CAMPAIGN = /^(utm_\w+|gclid|gbraid|wbraid|fbclid|ttclid|msclkid|epik|ScCid|sccid|tblci|obclid|ref)$/;
  var CONVERSIONS = /^(purchase|lead|subscribe)$/;
  var NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
  var FIELDS = ['transaction_id', 'revenue', 'currency', 'customer_id', 'is_new_customer', 'coupon_code'];
  var ITEM_TEXT = ['product_id', 'variant_id', 'sku', 'title'];
  var MAX_ITEMS = 100;
  var timezone = '';
  try { timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) {}

  var memory = {};
  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (e) { return memory; }
  }
  function save(state) {
    memory = state;
    try { localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) {}
  }
  // Purchase items as the collector takes them: texts as strings, whole non-negative numbers, at
  // most MAX_ITEMS; an entry that names no product is left out.
  function items(list) {
    var out = [];
    if (!Array.isArray(list)) return out;
    for (var i = 0; i < list.length && out.length < MAX_ITEMS; i++) {
      var it = list[i];
      if (!it || typeof it !== 'object') continue;
      var line = {}, named = false;
      for (var k = 0; k < ITEM_TEXT.length; k++) {
        if (it[ITEM_TEXT[k]] == null) continue;
        line[ITEM_TEXT[k]] = String(it[ITEM_TEXT[k]]).slice(0, 500);
        if (line[ITEM_TEXT[k]].trim()) named = true;
      }
      if (!named) continue;
      line.quantity = Math.max(0, Math.round(Number(it.quantity == null ? 1 : it.quantity)) || 0);
      line.unit_price = Math.max(0, Math.round(Number(it.unit_price)) || 0);
      out.push(line);
    }
    return out;
  }
  // The campaign parameters of the current URL, in a stable order ('' when there are none).
  function campaignOf(search) {
    var params = new URLSearchParams(search), parts = [];
    params.forEach(function (value, name) { if (CAMPAIGN.test(name)) parts.push(name + '=' + value); });
    return parts.sort().join('&');
  }
  function externalReferrer() {
    try { return d.referrer && new URL(d.referrer).hostname !== location.hostname ? d.referrer : ''; } catch (e) { return ''; }
  }
  // Visitor and session, renewed after 30 idle minutes or on a different campaign click.
  function touch() {
    var state = load(), now = Date.now(), campaign = campaignOf(location.search);
    if (!state.v) state.v = randomId();
    if (!state.s || now - (state.t || 0) > IDLE_MS || (campaign && campaign !== state.c)) {
      state.s = sessionId(now);
      state.e = location.href;
      state.r = externalReferrer();
      state.c = campaign;
    }
    state.t = now;
    save(state);
    return state;
  }

  var queue = [], timer = 0;
  function send() {
    clearTimeout(timer);
    timer = 0;
    while (queue.length) {
      var state = load();
      var body = JSON.stringify({
        pixel_id: pixelId, visitor_id: state.v, session_id: state.s, entry_url: state.e, referrer: state.r,
        timezone: timezone, customer_id: state.u || '', sent_at: Date.now(), items: queue.splice(0, 50)
      });
      var beaconed = false;
      try { beaconed = navigator.sendBeacon && navigator.sendBeacon(endpoint, body); } catch (e) {}
      if (!beaconed && w.fetch) fetch(endpoint, { method: 'POST', body: body, keepalive: true, credentials: 'omit' })['catch'](function () {});
    }
  }
  function record(item) {
    touch();
    item.url = location.href;
    item.ts = Date.now();
    queue.push(item);
    if (!timer) timer = setTimeout(send, 0);
  }

  // A widget script of the collector, loaded on first need; `name` is its entry point.
  function widget(file, name, args) {
    var show = function () { w[name](args); };
    if (w[name]) return show();
    var tag = d.createElement('script');
    tag.src = new URL(file, script.src).href;
    tag.onload = show;
    d.head.appendChild(tag);
  }

  // After a purchase: the workspace's live survey, if any, once per order (a reload of the
  // confirmation page does not show it again). The widget script is loaded only then.
  function offerSurvey(transactionId) {
    if (!w.fetch || load().a === transactionId) return;
    fetch(surveyEndpoint + '?pixel_id=' + encodeURIComponent(pixelId), { credentials: 'omit' }).then(function (response) {
      return response.status === 200 ? response.json() : null;
    }).then(function (body) {
      if (!body || !body.survey) return;
      var state = load();
      state.a = transactionId;
      save(state);
      widget('/pixel-survey.js', '__storelensSurvey', { survey: body.survey, endpoint: surveyEndpoint, pixelId: pixelId, transactionId: transactionId, visitorId: state.v });
    })['catch'](function () {});
  }

  // A shop form marked data-storelens-form is sent to the collector instead of its action.
  d.addEventListener('submit', function (e) {
    if (!e.target.matches('[data-storelens-form]')) return;
    e.preventDefault();
    widget('/pixel-form.js', '__storelensForm', { form: e.target, pixelId: pixelId, visitorId: load().v });
  });

  function call(command, name, props) {
    if (command === 'identify') {
      var state = load();
      state.u = name == null ? '' : String(name);
      save(state);
      return;
    }
    // A bad call is dropped here: the collector refuses a whole request for one bad item.
    if ((command !== 'event' && command !== 'conversion') || !NAME.test(name)) return;
    if (command === 'event' && !CONVERSIONS.test(name)) return record({ type: 'event', name: String(name) });
    var conversion = { type: 'conversion', name: String(name) };
    props = props || {};
    for (var i = 0; i < FIELDS.length; i++) if (props[FIELDS[i]] != null) conversion[FIELDS[i]] = props[FIELDS[i]];
    if (conversion.revenue != null) conversion.revenue = Math.max(0, Math.round(Number(conversion.revenue)) || 0);
    if (conversion.transaction_id != null) conversion.transaction_id = String(conversion.transaction_id);
    if (conversion.customer_id == null && load().u) conversion.customer_id = load().u;
    if (props.items != null) conversion.items = items(props.items);
    record(conversion);
    if (name === 'purchase' && conversion.transaction_id) offerSurvey(conversion.transaction_id);
  }

  var path = location.pathname;
  function pageview() {
    path = location.pathname;
    record({ type: 'event', name: 'pageview' });
  }
  function onNavigate() { if (location.pathname !== path) pageview(); }
  ['pushState', 'replaceState'].forEach(function (method) {
    var original = history[method];
    history[method] = function () {
      var result = original.apply(this, arguments);
      onNavigate();
      return result;
    };
  });
  w.addEventListener('popstate', onNavigate);
  w.addEventListener('pagehide', send);
  d.addEventListener('visibilitychange', function () { if (d.visibilityState === 'hidden') send(); });

  var waiting = (w.storelens && w.storelens.q) || [];
  w.storelens = function () { call.apply(null, arguments); };
  pageview();
  for (var j = 0; j < waiting.length; j++) call.apply(null, waiting[j]);
})(window, document);
