/*
 * Storelens try-on tracking module (optional).
 *   <script src="https://ANALYTICS/try-on/v1/tracking.js" data-pixel-id="px_..."></script>
 *   storelensTryOn('tryon_opened', { product_handle: 'tee', variant_id: 'red-m' });
 * Funnel events: tryon_opened, tryon_uploaded, tryon_generated, tryon_failed, tryon_lead.
 * When the Storelens pixel is on the page the events go through it (same visitor and session);
 * otherwise they are posted to /collect with this script's pixel id. Only a fixed list of
 * properties is passed on, so a session token or an e-mail can never leave through here.
 */
import { randomId, sessionId } from '../../collect/pixel/ids.js';

(function () {
  'use strict';
  var EVENTS = ['tryon_opened', 'tryon_uploaded', 'tryon_generated', 'tryon_failed', 'tryon_lead'];
  var PROPS = ['product_handle', 'variant_id', 'reason', 'experiment_id', 'variant_index'];
  var SESSION_IDLE_MS = 30 * 60 * 1000;
  var STORAGE_KEY = '_sl_tryon';
  var script = document.currentScript;
  var pixelId = script ? script.getAttribute('data-pixel-id') : null;
  var collectUrl = script ? new URL('/collect', script.src).href : null;

  function identity(now) {
    var state = null;
    try { state = JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null'); } catch (e) { state = null; }
    if (!state || !state.v) state = { v: randomId() };
    if (!state.s || !state.t || now - state.t > SESSION_IDLE_MS) {
      state.s = sessionId(now);
      state.e = location.href;
      state.r = document.referrer && new URL(document.referrer).host !== location.host ? document.referrer : '';
    }
    state.t = now;
    try { localStorage.setItem(STORAGE_KEY, JSON.stringify(state)); } catch (e) { /* storage refused */ }
    return state;
  }

  function pick(props) {
    var out = {};
    for (var i = 0; i < PROPS.length; i++) {
      var key = PROPS[i];
      if (props && props[key] !== undefined && props[key] !== null) out[key] = String(props[key]);
    }
    return out;
  }

  function post(name) {
    if (!pixelId || !collectUrl) return;
    var now = Date.now();
    var id = identity(now);
    var body = JSON.stringify({
      pixel_id: pixelId,
      visitor_id: id.v,
      session_id: id.s,
      entry_url: id.e,
      referrer: id.r,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || '',
      sent_at: now,
      items: [{ type: 'event', name: name, url: location.href, ts: now }],
    });
    if (navigator.sendBeacon && navigator.sendBeacon(collectUrl, new Blob([body], { type: 'text/plain' }))) return;
    fetch(collectUrl, { method: 'POST', body: body, headers: { 'content-type': 'text/plain' }, keepalive: true, mode: 'cors' }).catch(function () {});
  }

  function track(name, props) {
    if (EVENTS.indexOf(name) < 0) return;
    if (typeof window.storelens === 'function') window.storelens('event', name, pick(props));
    else post(name);
  }

  var queued = window.storelensTryOn && window.storelensTryOn.q;
  window.storelensTryOn = track;
  if (queued) for (var i = 0; i < queued.length; i++) track(queued[i][0], queued[i][1]);
})();
