/**
 * The MCP registry's description of this server (`server.json`, schema 2025-12-11; docs/mcp.md,
 * "Registry entry"), served at `GET /.well-known/mcp/server.json` from the public URL, so each
 * installation describes its own endpoints. Made from what the endpoint serves: the tool
 * registry, the server's identity and the two tool-endpoint URLs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { preflightRoute } from '../http/cors.ts';
import { OAUTH_PATH } from './connection.ts';
import { SERVER_INFO } from './methods.ts';
import { PUBLIC_DOCUMENT } from './oauth/metadata.ts';
import { PROTOCOL_VERSIONS } from './protocol.ts';
import { publicBase } from './public-base.ts';
import { STATELESS_VERSIONS } from './revision.ts';
import { TOOLS } from './tools/index.ts';

export const REGISTRY_ENTRY_PATH = '/.well-known/mcp/server.json';
export const SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The registry's names are reverse-DNS: the public host's labels reversed (`analytics.shop.example` -> `example.shop.analytics`). */
const namespaceOf = (base: string) => new URL(base).hostname.split('.').reverse().join('.');

const secretHeader = (name: string, description: string) => ({ name, description, isRequired: true, isSecret: true });

export function registryEntry(base: string) {
  return {
    $schema: SERVER_SCHEMA,
    name: `${namespaceOf(base)}/${SERVER_INFO.name}`,
    title: SERVER_INFO.title,
    description: `Marketing analytics of online stores: ${TOOLS.length} tools for reports, attribution and drafts`,
    version: SERVER_INFO.version,
    remotes: [
      {
        type: 'streamable-http',
        url: `${base}/mcp`,
        headers: [secretHeader('x-api-key', 'A Storelens API key'), secretHeader('client-secret', 'The API key\'s client secret')],
      },
      { type: 'streamable-http', url: `${base}${OAUTH_PATH}` },
    ],
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        protocolVersions: [...STATELESS_VERSIONS, ...PROTOCOL_VERSIONS],
        tools: TOOLS.map((tool) => tool.name),
      },
    },
  };
}

export async function registryEntryRoute(app: FastifyInstance): Promise<void> {
  app.get(REGISTRY_ENTRY_PATH, { config: { cors: PUBLIC_DOCUMENT } }, async (request: FastifyRequest) => registryEntry(publicBase(app.config, request)));
  preflightRoute(app, REGISTRY_ENTRY_PATH, PUBLIC_DOCUMENT);
}
