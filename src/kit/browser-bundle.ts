import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface BrowserBundle {
  js: string;
  css: string;
}

/**
 * Browser code bundled and minified in memory: one script and its stylesheet, built from their
 * entry files (absolute paths), so `npm start` needs no build step. The dashboard serves the
 * result as files (`esm`); an MCP App inlines it in its document (`iife`).
 */
export async function bundleBrowserCode(entries: { script: string; stylesheet: string; format: 'esm' | 'iife' }): Promise<BrowserBundle> {
  const result = await build({
    entryPoints: [
      { in: entries.script, out: 'app' },
      { in: entries.stylesheet, out: 'app' },
    ],
    bundle: true,
    minify: true,
    format: entries.format,
    target: 'es2020',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))!.text;
  return { js: file('.js'), css: file('.css') };
}

const scripts = new Map<string, Promise<string>>();
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A script that shops' pages run (the pixel, its widgets, the try-on tracking module, the Shopify
 * custom pixel) with the modules it imports, as one classic ES2017 script that adds no globals,
 * bundled once per process and set of options. Unminified, it names its modules by their
 * path in the repository; a `banner` goes first.
 */
export function bundleShopScript(file: URL, options: { minify: boolean; banner?: string }): Promise<string> {
  const key = JSON.stringify([file.href, options.minify, options.banner ?? '']);
  let code = scripts.get(key);
  if (!code) {
    code = build({
      entryPoints: [fileURLToPath(file)],
      absWorkingDir: REPO,
      bundle: true,
      minify: options.minify,
      ...(options.banner ? { banner: { js: options.banner } } : {}),
      format: 'iife',
      target: 'es2017',
      write: false,
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]!.text);
    scripts.set(key, code);
  }
  return code;
}
