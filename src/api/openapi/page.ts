/**
 * The API reference page: the OpenAPI document rendered to plain HTML on the server, so it needs
 * no script and no CDN. Its only other resource is its stylesheet, served beside it, so the page
 * works under a Content-Security-Policy of `default-src 'none'; style-src 'self'`.
 */
import { escapeHtml as escape } from '../../kit/html.ts';

type Json = Record<string, any>;

/** `code` spans from the Markdown-ish backticks of descriptions. */
const prose = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (schema.enum) return schema.enum.join(' | ');
  return [schema.type, schema.pattern ? `pattern ${schema.pattern}` : '', schema.maxLength ? `up to ${schema.maxLength} chars` : '']
    .filter(Boolean)
    .join(', ');
}

function parameters(list: Json[]): string {
  const rows = list
    .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(typeOf(p.schema))}</td><td>${prose(p.description ?? '')}</td></tr>`)
    .join('\n');
  return `<table><thead><tr><th>parameter</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function responses(all: Record<string, Json>): string {
  const items = Object.entries(all)
    .map(([status, response]) => {
      const fields =
        response.content?.['application/json']?.schema?.properties?.data?.items?.properties ??
        (Object.values(response.content ?? {})[0] as Json | undefined)?.schema?.properties;
      const list = fields ? ` Row fields: ${Object.keys(fields).map((f) => `<code>${escape(f)}</code>`).join(', ')}.` : '';
      return `<li><strong>${escape(status)}</strong>: ${prose(response.description)}${list}</li>`;
    })
    .join('\n');
  return `<ul class="responses">${items}</ul>`;
}

export function referencePage(document: Json): string {
  const sections = Object.entries(document.paths as Record<string, Json>)
    .map(([path, item]) => {
      const op = item.get;
      return `<section id="${escape(op.operationId)}">
<h2><span class="method">GET</span> <code>${escape(path)}</code></h2>
<p><strong>${escape(op.summary)}.</strong> ${prose(op.description)}</p>
${parameters(op.parameters)}
<h3>Responses</h3>
${responses(op.responses)}
</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)}</title>
<link rel="stylesheet" href="/api-docs.css">
</head>
<body>
<h1>${escape(document.info.title)}</h1>
<p>${prose(document.info.description)}</p>
<p>Every request sends the headers <code>x-api-key</code> and <code>client-secret</code>. Errors are
<code>{"message": "..."}</code>. The machine-readable document: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<nav><ul>${Object.entries(document.paths as Record<string, Json>).map(([path, item]) => `<li><a href="#${escape(item.get.operationId)}"><code>${escape(path)}</code></a></li>`).join('')}</ul></nav>
${sections}
</body>
</html>`;
}

export const REFERENCE_CSS = `body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d232b; }
code { font: 13px ui-monospace, monospace; background: #f2f4f7; padding: 0 .2rem; border-radius: 3px; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { border: 1px solid #d5dbe1; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
section { border-top: 1px solid #d5dbe1; margin-top: 2rem; }
.method { background: #0b6e4f; color: #fff; border-radius: 4px; padding: 0 .4rem; font-size: .8em; }
.responses li { margin: .3rem 0; }
`;
