// Storelens storefront forms (docs/collection.md, "Storefront forms"). The pixel loads this script
// when the visitor first submits a form marked `data-storelens-form="ID"`, and hands it each submit. It
// sends the values of the form's controls marked `data-storelens-field="N"` (N: the field's index)
// to POST /collect/form and says what happened in the form's polite live region; a refused value
// is marked on its control. The form stays the shop's: its markup and styles are left alone.
// Plain ES2017, no dependencies; served minified.
(function (w, d) {
  var MESSAGES = {
    sending: 'Sending\u2026',
    sent: 'Thank you! Your details were sent.',
    closed: 'This form is not taking submissions at the moment.',
    busy: 'Too many submissions right now. Please try again in a minute.',
    failed: 'Your details could not be sent. Please try again.',
    empty: 'Please fill in the form first.'
  };
  var FIELD_ERROR = /^field (\d+) \((.*)\): (.*)$/;
  var endpoint = new URL('/collect/form', d.currentScript.src).href;

  // The form's live region: the shop's own element marked data-storelens-status, else one added
  // at the end of the form (a region must exist before its text changes to be announced).
  function statusOf(form) {
    var status = form.querySelector('[data-storelens-status]');
    if (!status) {
      status = d.createElement('p');
      status.setAttribute('data-storelens-status', '');
      form.appendChild(status);
    }
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    return status;
  }

  // The marked controls' values as the collector takes them: a checkbox true or false, a number
  // input a number, a radio group its checked value, anything else its text; empty ones left out.
  function values(form) {
    var out = [];
    [].forEach.call(form.querySelectorAll('[data-storelens-field]'), function (control) {
      var field = control.getAttribute('data-storelens-field');
      if (!/^\d{1,3}$/.test(field) || control.disabled) return;
      var value = control.value;
      if (control.type === 'checkbox') value = control.checked;
      else if (control.type === 'radio' && !control.checked) return;
      else if (!String(value).trim()) return;
      else if (control.type === 'number') value = Number(value);
      out.push({ field: Number(field), value: value });
    });
    return out;
  }

  function clearErrors(form) {
    [].forEach.call(form.querySelectorAll('[data-storelens-error]'), function (node) { node.remove(); });
    [].forEach.call(form.querySelectorAll('[data-storelens-field][aria-invalid]'), function (control) {
      control.removeAttribute('aria-invalid');
      var described = (control.getAttribute('aria-describedby') || '').split(' ').filter(function (id) { return id.indexOf('storelens-error-') !== 0; });
      if (described.length) control.setAttribute('aria-describedby', described.join(' '));
      else control.removeAttribute('aria-describedby');
    });
  }

  // Marks the field the collector named: its controls invalid and described by the message,
  // which follows the last of them; the first gets the focus. False when no control has that index.
  function markField(form, field, text) {
    var controls = form.querySelectorAll('[data-storelens-field="' + field + '"]');
    if (!controls.length) return false;
    var error = d.createElement('span');
    error.id = 'storelens-error-' + form.getAttribute('data-storelens-form') + '-' + field;
    error.setAttribute('data-storelens-error', '');
    error.textContent = text;
    [].forEach.call(controls, function (control) {
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', ((control.getAttribute('aria-describedby') || '') + ' ' + error.id).trim());
    });
    var last = controls[controls.length - 1];
    (last.closest('label') || last).after(error);
    controls[0].focus();
    return true;
  }

  function refused(form, status, message) {
    var named = FIELD_ERROR.exec(message || '');
    var text = named ? named[2] + ': ' + named[3] : message;
    status.textContent = text ? 'Not sent. ' + text + '.' : MESSAGES.failed;
    if (named) markField(form, named[1], text);
  }

  // opts: {form, pixelId, visitorId}; a submit while the form is being sent is ignored.
  w.__storelensForm = function (opts) {
    var form = opts.form;
    if (form.getAttribute('aria-busy') === 'true') return;
    var status = statusOf(form);
    clearErrors(form);
    var body = { pixel_id: opts.pixelId, form_id: form.getAttribute('data-storelens-form'), values: values(form) };
    if (opts.visitorId) body.visitor_id = opts.visitorId;
    if (!body.values.length) {
      status.textContent = MESSAGES.empty;
      return;
    }
    form.setAttribute('aria-busy', 'true');
    status.textContent = MESSAGES.sending;
    var code = 0;
    fetch(endpoint, { method: 'POST', body: JSON.stringify(body), credentials: 'omit' }).then(function (response) {
      code = response.status;
      return code === 202 ? null : response.json()['catch'](function () { return {}; });
    }).then(function (answer) {
      if (code === 202) {
        form.reset();
        status.textContent = MESSAGES.sent;
      } else if (code === 400) refused(form, status, answer && answer.message);
      else status.textContent = code === 404 ? MESSAGES.closed : code === 429 ? MESSAGES.busy : MESSAGES.failed;
    })['catch'](function () {
      status.textContent = MESSAGES.failed;
    }).then(function () {
      form.removeAttribute('aria-busy');
    });
  };
})(window, document);
