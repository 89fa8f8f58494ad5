import fs from 'node:fs';
import { transform } from 'esbuild';

let minified: Promise<string> | null = null;

/** The pixel source minified once per process (about 3.3 KB). */
export function pixelScript(): Promise<string> {
  minified ??= transform(fs.readFileSync(new URL('./pixel.js', import.meta.url), 'utf8'), {
    minify: true,
    target: 'es2017',
  }).then((result) => result.code);
  return minified;
}
