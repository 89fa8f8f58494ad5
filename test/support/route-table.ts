import type { FastifyInstance } from 'fastify';

/** `(METHOD path)` of every route of the given methods, from Fastify's printed route tree; `:param` becomes `x`. */
export function routeTable(app: FastifyInstance, methods: readonly string[] = ['GET', 'POST']): { method: string; url: string }[] {
  const found: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const url = stack.join('').replace(/:[^/]+/g, 'x');
    for (const method of match[3]!.split(', ')) if (methods.includes(method)) found.push({ method, url });
  }
  return found;
}
