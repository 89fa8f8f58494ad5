import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { NotFound } from '../kit/errors.ts';

const DOCS_DIR = new URL('../../docs/', import.meta.url);

/**
 * GET /docs/<name>.md: the service's own documentation as plain Markdown, so the dashboard and the
 * tools can link a person to the page that explains a figure (the books view links books.md). Only
 * the Markdown files the docs folder held at start-up are served, by exact name.
 */
export async function docsRoute(app: FastifyInstance): Promise<void> {
  const pages = new Set(fs.readdirSync(DOCS_DIR).filter((name) => name.endsWith('.md')));
  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    if (!pages.has(request.params.file)) throw new NotFound('Not found');
    return reply.type('text/markdown; charset=utf-8').header('cache-control', 'no-cache').send(fs.readFileSync(new URL(request.params.file, DOCS_DIR)));
  });
}
