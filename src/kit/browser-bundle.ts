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
