/**
 * A client's own website for the Client ID Metadata Document tests: an https server on loopback
 * with the test certificate of test/fixtures/tls, which this process's https client is told to
 * trust, in place of the public roots, which no test needs (Node reads NODE_EXTRA_CA_CERTS only at
 * start-up; `https.request` without an agent of its own connects through the global agent, whose
 * options it takes). Each path answers as its test sets it, and the requests per path are counted.
 */
import fs from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import path from 'node:path';

const TLS = path.join(import.meta.dirname, '..', 'fixtures', 'tls');

export interface DocumentHost {
  /** `https://localhost:<port>`: the name the tests allow to be private; `https://127.0.0.1:<port>` is the same server by address. */
  origin: string;
  port: number;
  route(pathname: string, answer: http.RequestListener): void;
  /** A path that answers `document` as JSON with these headers. */
  json(pathname: string, document: unknown, headers?: Record<string, string>): void;
  fetches(pathname: string): number;
  close(): Promise<void>;
}

export async function startDocumentHost(): Promise<DocumentHost> {
  const cert = fs.readFileSync(path.join(TLS, 'localhost-cert.pem'));
  https.globalAgent.options.ca = cert;
  const routes = new Map<string, http.RequestListener>();
  const counts = new Map<string, number>();
  const server = https.createServer({ cert, key: fs.readFileSync(path.join(TLS, 'localhost-key.pem')) }, (req, res) => {
    const pathname = new URL(req.url!, 'https://localhost').pathname;
    counts.set(pathname, (counts.get(pathname) ?? 0) + 1);
    const answer = routes.get(pathname);
    if (answer) return answer(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `https://localhost:${port}`,
    port,
    route: (pathname, answer) => routes.set(pathname, answer),
    json(pathname, document, headers = {}) {
      routes.set(pathname, (_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(document)));
    },
    fetches: (pathname) => counts.get(pathname) ?? 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
