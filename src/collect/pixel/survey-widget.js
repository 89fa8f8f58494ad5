// Storelens post-purchase survey widget (docs/collection.md, "Post-purchase surveys"). The pixel
// loads it on the order confirmation page when the workspace has a live survey. Plain ES2017, no
// dependencies; served minified. It lives in a shadow root, so the shop's styles do not
// reach it and its own reach nothing else; inherited properties are reset at the host.
(function (w, d) {
  var CSS = [
    ':host{all:initial}',
    '.card{position:fixed;right:16px;bottom:16px;z-index:2147483000;box-sizing:border-box;width:min(360px,calc(100vw - 32px));max-height:calc(100vh - 32px);overflow:auto;',
    'background:#fff;color:#1f2937;border:1px solid #d1d5db;border-radius:10px;box-shadow:0 8px 30px rgba(0,0,0,.18);padding:16px;',
    'font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:left}',
    '.card *{box-sizing:border-box}',
    'button,textarea,input{font:inherit}',
    'h2{font-size:16px;font-weight:600;margin:0 28px 12px 0}',
    'fieldset{border:0;margin:0 0 12px;padding:0}',
    'legend,.label{display:block;font-weight:600;margin:0 0 6px;padding:0}',
    '.options{display:flex;flex-wrap:wrap;gap:6px}',
    '.option{display:inline-flex;align-items:center;gap:6px;border:1px solid #d1d5db;border-radius:6px;padding:6px 8px;cursor:pointer}',
    '.scale .option{min-width:36px;justify-content:center}',
    '.hint{display:block;font-size:12px;color:#4b5563;margin-top:4px}',
    'textarea{width:100%;min-height:64px;border:1px solid #9ca3af;border-radius:6px;padding:6px;resize:vertical;background:#fff;color:inherit}',
    'button{cursor:pointer;border-radius:6px;border:1px solid #111827;background:#111827;color:#fff;padding:8px 14px;font-weight:600}',
    'button.close{position:absolute;top:8px;right:8px;background:transparent;color:#374151;border:0;padding:4px 8px;font-size:20px;line-height:1}',
    ':focus-visible{outline:3px solid #2563eb;outline-offset:2px}',
    'input:focus-visible{outline-offset:1px}',
    '.error{color:#b91c1c;margin:0 0 8px}',
    '.error:empty{display:none}',
  ].join('');

  function el(tag, attrs, children) {
    var node = d.createElement(tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) node.setAttribute(k, attrs[k]);
    (children || []).forEach(function (c) { node.append(c); });
    return node;
  }

  function style(root) {
    try {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } catch (e) {
      root.append(el('style', {}, [CSS]));
    }
  }

  // One question as form controls: a group of radios or checkboxes, or a text area.
  function question(q, i) {
    var id = 'storelens-q' + i;
    if (q.type === 'text') {
      return el('div', { 'class': 'field' }, [
        el('label', { 'class': 'label', 'for': id }, [q.text]),
        el('textarea', { id: id, name: 'q' + i, maxlength: '2000', rows: '3' }),
      ]);
    }
    var values = q.type === 'rating' ? [1, 2, 3, 4, 5] : q.type === 'nps' ? [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : q.options || [];
    var kind = q.type === 'multiple_choice' ? 'checkbox' : 'radio';
    var options = values.map(function (value, n) {
      return el('label', { 'class': 'option' }, [el('input', { type: kind, name: 'q' + i, value: String(value), id: id + '-' + n }), String(value)]);
    });
    var hint = q.type === 'rating' ? '1 = poor, 5 = excellent' : q.type === 'nps' ? '0 = not at all likely, 10 = extremely likely' : '';
    var legend = el('legend', {}, [q.text]);
    if (hint) legend.append(el('span', { 'class': 'hint' }, [hint]));
    return el('fieldset', { 'class': q.type === 'rating' || q.type === 'nps' ? 'scale' : '' }, [legend, el('div', { 'class': 'options' }, options)]);
  }

  // The answers given so far, as the collector takes them.
  function answers(form, questions) {
    var out = [];
    questions.forEach(function (q, i) {
      var inputs = [].slice.call(form.querySelectorAll('[name="q' + i + '"]'));
      if (q.type === 'text') {
        var text = inputs[0].value.trim();
        if (text) out.push({ question: i, value: text });
        return;
      }
      var chosen = inputs.filter(function (input) { return input.checked; }).map(function (input) { return input.value; });
      if (!chosen.length) return;
      if (q.type === 'multiple_choice') out.push({ question: i, value: chosen });
      else if (q.type === 'single_choice') out.push({ question: i, value: chosen[0] });
      else out.push({ question: i, value: Number(chosen[0]) });
    });
    return out;
  }

  // opts: {survey: {id, title, questions}, endpoint, pixelId, transactionId, visitorId}
  w.__storelensSurvey = function (opts) {
    var survey = opts.survey;
    var host = el('div', { 'data-storelens-survey': survey.id });
    var root = host.attachShadow ? host.attachShadow({ mode: 'open' }) : host;
    style(root);
    var before = d.activeElement;
    var title = el('h2', { id: 'storelens-survey-title', tabindex: '-1' }, [survey.title]);
    var close = el('button', { type: 'button', 'class': 'close', 'aria-label': 'Close survey' }, ['\u00d7']);
    var error = el('p', { 'class': 'error', role: 'alert' });
    var send = el('button', { type: 'submit' }, ['Send']);
    var form = el('form', { novalidate: '' }, survey.questions.map(question).concat([error, send]));
    var card = el('section', { 'class': 'card', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'storelens-survey-title' }, [close, title, form]);
    root.append(card);

    function dismiss() {
      host.remove();
      if (before && before.focus) before.focus();
    }
    close.addEventListener('click', dismiss);
    card.addEventListener('keydown', function (e) { if (e.key === 'Escape') dismiss(); });

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var given = answers(form, survey.questions);
      if (!given.length) {
        error.textContent = 'Please answer at least one question.';
        return;
      }
      var body = { pixel_id: opts.pixelId, survey_id: survey.id, transaction_id: opts.transactionId, answers: given };
      if (opts.visitorId) body.visitor_id = opts.visitorId;
      send.disabled = true;
      fetch(opts.endpoint, { method: 'POST', body: JSON.stringify(body), keepalive: true, credentials: 'omit' }).then(function (response) {
        if (response.status !== 202) throw new Error(String(response.status));
        var thanks = el('p', { role: 'status', tabindex: '-1' }, ['Thank you for your answers!']);
        form.replaceWith(thanks);
        thanks.focus();
      })['catch'](function () {
        send.disabled = false;
        error.textContent = 'Your answers could not be sent. Please try again.';
      });
    });

    var mount = function () {
      d.body.append(host);
      title.focus();
    };
    if (d.body) mount();
    else d.addEventListener('DOMContentLoaded', mount);
  };
})(window, document);
