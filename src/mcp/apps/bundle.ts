import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

let bundle: Promise<{ js: string; css: string }> | null = null;

/**
 * The apps' browser code (client/, on the dashboard's Preact components and uPlot charts), bundled
 * and minified once per process on first use, as the dashboard's is at start-up: one script and
 * one stylesheet that every app document inlines.
 */
function appBundle(): Promise<{ js: string; css: string }> {
  bundle ??= build({
    entryPoints: [
      { in: fileURLToPath(new URL('./client/main.ts', import.meta.url)), out: 'app' },
      { in: fileURLToPath(new URL('./client/app.css', import.meta.url)), out: 'app' },
    ],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  }).then((result) => {
    const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))!.text;
    return { js: file('.js'), css: file('.css') };
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
