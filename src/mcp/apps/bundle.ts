import { fileURLToPath } from 'node:url';
import { bundleBrowserCode, type BrowserBundle } from '../../kit/browser-bundle.ts';

let bundle: Promise<BrowserBundle> | null = null;

/**
 * The apps' browser code (client/, on the Preact components and uPlot charts of src/ui it shares with the dashboard), bundled
 * and minified once per process on first use, as the dashboard's is at start-up: one script and
 * one stylesheet that every app document inlines.
 */
function appBundle(): Promise<BrowserBundle> {
  bundle ??= bundleBrowserCode({
    script: fileURLToPath(new URL('./client/main.ts', import.meta.url)),
    stylesheet: fileURLToPath(new URL('./client/app.css', import.meta.url)),
    format: 'iife',
  });
  return bundle;
}

/** Text that cannot end the element it is inlined in (`</script`, `</style`). */
const inline = (text: string) => text.replace(/<\/(script|style)/gi, '<\\/$1');

/**
 * An app's HTML document: self-contained (inline script and style, no URL to fetch), so it runs
 * under the restrictive policy hosts apply when a resource declares no domains.
 */
export async function appDocument(view: string, title: string): Promise<string> {
  const { js, css } = await appBundle();
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${title}</title><style>${inline(css)}</style></head>` +
    `<body data-app="${view}"><main id="app"></main><script>${inline(js)}</script></body></html>`
  );
}
