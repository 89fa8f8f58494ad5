import fs from 'node:fs';
import { transform } from 'esbuild';

const minified = new Map<string, Promise<string>>();

/** A browser script of this folder minified once per process. */
function script(file: string): Promise<string> {
  let code = minified.get(file);
  if (!code) {
    code = transform(fs.readFileSync(new URL(file, import.meta.url), 'utf8'), { minify: true, target: 'es2017' }).then((result) => result.code);
    minified.set(file, code);
  }
  return code;
}

/** The pixel (about 4 KB minified). */
export const pixelScript = () => script('./pixel.js');

/** The post-purchase survey widget, which the pixel loads only when a survey is live. */
export const surveyWidgetScript = () => script('./survey-widget.js');

/** The storefront form script, which the pixel loads when a marked form is first submitted. */
export const formWidgetScript = () => script('./form-widget.js');
