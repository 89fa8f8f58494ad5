import fs from 'node:fs';
import path from 'node:path';
import { renderToolsMarkdown } from './docs.ts';

/** `npm run docs:tools`: rewrites docs/tools.md from the tool registry. */
const target = path.resolve(import.meta.dirname, '../../docs/tools.md');
fs.writeFileSync(target, renderToolsMarkdown());
process.stdout.write(`${JSON.stringify({ written: path.relative(process.cwd(), target) })}\n`);
