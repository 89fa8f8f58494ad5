/*
 * Demo storefront: uses the try-on API the way a shop page would, on the service's own origin
 * only (it never loads or calls anything elsewhere; its Content-Security-Policy would refuse it).
 * Settings come from the query string: workspace, product, variant, title, consent_version,
 * marketing_version, pixel (public pixel id, for tracking.js), via_pixel=1 (also load the
 * Storelens pixel, as a shop that has it installed).
 * The session token lives in this page's memory only: never in storage, URLs or analytics.
 */
(function () {
  'use strict';
  var params = new URLSearchParams(location.search);
  var api = '/try-on/v1';
  var workspaceId = Number(params.get('workspace'));
  var product = params.get('product') || '';
  var variant = params.get('variant') || '';
  var consentVersion = params.get('consent_version') || 'v1';
  var marketingVersion = params.get('marketing_version') || 'v1';
  var POLL_MS = 2000;
  var $ = function (id) { return document.getElementById(id); };
  var session = null;
  var job = null;

  window.storelensTryOn = window.storelensTryOn || function () { (window.storelensTryOn.q = window.storelensTryOn.q || []).push(arguments); };
  if (params.get('pixel') && params.get('via_pixel') === '1') {
    // A shop with the Storelens pixel: tracking.js then reports through it.
    window.storelens = window.storelens || function () { (window.storelens.q = window.storelens.q || []).push(arguments); };
    var pixel = document.createElement('script');
    pixel.async = true;
    pixel.src = '/pixel.js';
    pixel.setAttribute('data-pixel-id', params.get('pixel'));
    document.head.appendChild(pixel);
  }
  if (params.get('pixel')) {
    var tag = document.createElement('script');
    tag.src = api + '/tracking.js';
    tag.setAttribute('data-pixel-id', params.get('pixel'));
    document.head.appendChild(tag);
  }
  var track = function (name, extra) {
    var props = { product_handle: product, variant_id: variant };
    for (var k in extra || {}) props[k] = extra[k];
    window.storelensTryOn(name, props);
  };

  $('product-title').textContent = params.get('title') || product;
  track('tryon_opened');

  function status(text) { $('status').textContent = text; }

  async function call(method, path, body) {
    var headers = body ? { 'content-type': 'application/json' } : {};
    if (session) headers['x-try-on-session'] = session;
    var url = api + path + (method === 'GET' || method === 'DELETE' ? '?workspace_id=' + workspaceId : '');
    var response = await fetch(url, { method: method, headers: headers, body: body ? JSON.stringify(Object.assign({ workspace_id: workspaceId }, body)) : undefined });
    var json = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error((json.error && json.error.code) || 'http_' + response.status);
    return json;
  }

  async function sha256Base64(buffer) {
    var digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
    var binary = '';
    for (var i = 0; i < digest.length; i++) binary += String.fromCharCode(digest[i]);
    return btoa(binary);
  }

  var sleep = function (ms) { return new Promise(function (r) { setTimeout(r, ms); }); };

  $('try').addEventListener('click', async function () {
    var file = $('photo').files[0];
    if (!file) return status('Choose a photo first.');
    if (!$('consent').checked || !$('adult').checked) return status('Please confirm both boxes.');
    $('try').disabled = true;
    try {
      status('Uploading…');
      var bytes = await file.arrayBuffer();
      var reservation = await call('POST', '/uploads', {
        consent: true, adult: true, consent_version: consentVersion,
        bytes: bytes.byteLength, mime_type: file.type, checksum_sha256: await sha256Base64(bytes),
      });
      session = reservation.session_token;
      var put = await fetch(reservation.upload_url, { method: 'PUT', headers: reservation.upload_headers, body: bytes });
      if (!put.ok) throw new Error('upload_' + put.status);
      track('tryon_uploaded');
      status('Creating your try-on…');
      var accepted = await call('POST', '/jobs', {
        job_id: reservation.job_id, upload_key: reservation.upload_key, product_handle: product, variant_id: variant,
        consent: true, consent_version: consentVersion,
      });
      job = accepted.job_id;
      for (;;) {
        var state = await call('GET', '/jobs/' + encodeURIComponent(job));
        if (state.status === 'done') {
          $('result').src = state.result_url;
          await new Promise(function (resolve) { $('result').onload = resolve; $('result').onerror = resolve; });
          $('result-box').hidden = false;
          track('tryon_generated');
          return status('Here you are.');
        }
        if (state.status !== 'pending') {
          track('tryon_failed', { reason: state.reason || state.status });
          return status('Sorry, that did not work (' + (state.reason || state.status) + ').');
        }
        await sleep(POLL_MS);
      }
    } catch (error) {
      track('tryon_failed', { reason: error.message });
      status('Sorry, that did not work (' + error.message + ').');
    } finally {
      $('try').disabled = false;
    }
  });

  $('lead-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    if (!$('marketing').checked) return status('Please agree to be contacted first.');
    try {
      await call('POST', '/jobs/' + encodeURIComponent(job) + '/leads', {
        email: $('email').value, marketing_consent: true, marketing_version: marketingVersion,
      });
      track('tryon_lead');
      status('Thanks, we will be in touch.');
    } catch (error) {
      status('Could not send (' + error.message + ').');
    }
  });

  $('delete').addEventListener('click', async function () {
    try {
      await call('DELETE', '/jobs/' + encodeURIComponent(job));
      $('result').removeAttribute('src');
      $('result-box').hidden = true;
      status('Your photo and try-on were deleted.');
    } catch (error) {
      status('Could not delete (' + error.message + ').');
    }
  });
})();
