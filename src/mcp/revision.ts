/**
 * Which MCP revision a request speaks, decided per request (docs/mcp.md, "Protocol revisions").
 * A request whose `params._meta` names `io.modelcontextprotocol/protocolVersion` speaks the
 * stateless revision 2026-07-28; anything else is a 2025 request (2025-11-25, 2025-06-18,
 * 2025-03-26), answered as before. The checks and their order follow the revision's HTTP
 * transport: the envelope, then the `MCP-Protocol-Version` and `Mcp-Method` headers against the
 * body, the version, then the headers every 2026-07-28 request must carry (`Mcp-Name` mirrors
 * `params.name` or `params.uri`). A refusal here is HTTP 400, as the revision requires.
 */
import { ClientCapabilitiesSchema, ImplementationSchema, LoggingLevelSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import { INVALID_PARAMS, INVALID_REQUEST, RpcError, quoted, type RpcRequest } from './protocol.ts';

/** The stateless revisions the endpoint speaks, newest first. */
export const STATELESS_VERSIONS = ['2026-07-28'] as const;

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** The revision's error codes for what fails before a method runs. */
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** How a request is answered: the 2025 way, or the stateless way with the client's declared capabilities. */
export type Revision = { stateless: false } | { stateless: true; version: string; clientCapabilities: Record<string, unknown> };

const LEGACY: Revision = { stateless: false };

/** The per-request envelope; the two keys the revision requires come first in the refusal. */
const REQUIRED_KEYS = [PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY] as const;
const Envelope = z.looseObject({
  [PROTOCOL_VERSION_KEY]: z.string(),
  [CLIENT_INFO_KEY]: ImplementationSchema.optional(),
  [CLIENT_CAPABILITIES_KEY]: ClientCapabilitiesSchema,
  'io.modelcontextprotocol/logLevel': LoggingLevelSchema.optional(),
});

/** The body field the `Mcp-Name` header mirrors, per method. */
const NAME_SOURCE: Record<string, 'name' | 'uri'> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

export interface StandardHeaders {
  protocolVersion?: string;
  method?: string;
  name?: string;
}

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim() : undefined);

export function standardHeaders(headers: Record<string, string | string[] | undefined>): StandardHeaders {
  return { protocolVersion: header(headers['mcp-protocol-version']), method: header(headers['mcp-method']), name: header(headers['mcp-name']) };
}

/** A refusal of the revision's transport: a JSON-RPC error sent with HTTP 400. */
function refusal(code: number, message: string, data: unknown): RpcError {
  return new RpcError(code, message, data, 400);
}

/** -32020; what the client sent is quoted cut at 100 characters. */
function mismatch(header: string, body: string): RpcError {
  return refusal(HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${body}`, { mismatch: { header: quoted(header), body } });
}

const isModern = (version: string) => version >= STATELESS_VERSIONS[STATELESS_VERSIONS.length - 1]!;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const metaOf = (params: Record<string, unknown>) => (isRecord(params._meta) ? params._meta : undefined);

/** `=?base64?...?=` carries a value that is not plain ASCII; undefined when that encoding is broken. */
function decodeHeaderValue(value: string): string | undefined {
  const sentinel = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!sentinel) return value;
  const b64 = sentinel[1]!;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  const text = Buffer.from(b64, 'base64').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64') === b64 ? text : undefined;
}

function envelopeProblem(meta: Record<string, unknown>): { key: string; problem: string } | undefined {
  const missing = REQUIRED_KEYS.find((key) => !(key in meta));
  if (missing) return { key: missing, problem: 'missing' };
  const parsed = Envelope.safeParse(meta);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  return { key: issue.path.length ? issue.path.map(String).join('.') : '_meta', problem: issue.message };
}

/** The headers every stateless request carries; `Mcp-Name` where the method names something. */
function checkRequiredHeaders(headers: StandardHeaders, rpc: RpcRequest, claimed: string): void {
  if (headers.protocolVersion === undefined) {
    throw mismatch('(missing)', `the body envelope names protocol version ${claimed} but the required MCP-Protocol-Version header is absent`);
  }
  if (headers.method === undefined) throw mismatch('(missing)', `the body names method ${quoted(rpc.method)} but the required Mcp-Method header is absent`);
  const field = NAME_SOURCE[rpc.method];
  const bodyValue = field && typeof rpc.params[field] === 'string' ? (rpc.params[field] as string) : undefined;
  if (bodyValue === undefined) return;
  if (headers.name === undefined) throw mismatch('(missing)', `the body carries params.${field}="${quoted(bodyValue)}" but the required Mcp-Name header is absent`);
  const decoded = decodeHeaderValue(headers.name);
  if (decoded === undefined) throw mismatch(headers.name, 'the Mcp-Name header carries an invalid Base64 sentinel value');
  if (decoded !== bodyValue) throw mismatch(headers.name, `the body carries params.${field}="${quoted(bodyValue)}" but the Mcp-Name header names "${quoted(decoded)}"`);
}

/** Whether a message's params name the protocol version: the mark of a 2026-07-28 message. */
function claimsVersion(message: unknown): boolean {
  const meta = isRecord(message) && isRecord(message.params) ? metaOf(message.params) : undefined;
  return meta !== undefined && PROTOCOL_VERSION_KEY in meta;
}

/** A batch is refused in every revision; one that holds a 2026-07-28 message is refused as that revision says, with HTTP 400. */
export function batchRefusal(body: unknown): RpcError | undefined {
  if (!Array.isArray(body) || !body.some(claimsVersion)) return undefined;
  return refusal(INVALID_REQUEST, 'Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later', undefined);
}

/**
 * A notification needs no reply and no standard headers, but the ones it carries must agree with
 * its body, as a request's must; throws the revision's refusal.
 */
export function checkNotification(rpc: RpcRequest, headers: StandardHeaders): void {
  const meta = metaOf(rpc.params);
  const claimed = meta !== undefined && PROTOCOL_VERSION_KEY in meta;
  if (claimed && typeof meta[PROTOCOL_VERSION_KEY] !== 'string') {
    throw refusal(INVALID_PARAMS, `Invalid _meta envelope for protocol revision 2026-07-28: ${PROTOCOL_VERSION_KEY}: expected a protocol version string`, {
      envelope: { key: PROTOCOL_VERSION_KEY, problem: 'expected a protocol version string' },
    });
  }
  const version = claimed ? (meta[PROTOCOL_VERSION_KEY] as string) : headers.protocolVersion;
  if (claimed && headers.protocolVersion !== undefined && headers.protocolVersion !== version) {
    throw mismatch(headers.protocolVersion, `the notification envelope names protocol version ${quoted(version!)} but the MCP-Protocol-Version header names ${quoted(headers.protocolVersion)}`);
  }
  if (version !== undefined && isModern(version) && headers.method !== undefined && headers.method !== rpc.method) {
    throw mismatch(headers.method, `the notification body names method ${quoted(rpc.method)} but the Mcp-Method header names ${quoted(headers.method)}`);
  }
}

/** The revision of one request (not a notification); throws the revision's refusal. */
export function revisionOf(rpc: RpcRequest, headers: StandardHeaders): Revision {
  const meta = metaOf(rpc.params);
  const claimed = meta !== undefined && PROTOCOL_VERSION_KEY in meta;
  const headerIsModern = headers.protocolVersion !== undefined && isModern(headers.protocolVersion);
  if (!claimed) {
    if (rpc.method === 'initialize' && headerIsModern) {
      throw mismatch(headers.protocolVersion!, 'an initialize request (legacy handshake) was sent with a modern MCP-Protocol-Version header');
    }
    if (headerIsModern) {
      const missing = meta === undefined ? ['_meta'] : REQUIRED_KEYS.filter((key) => !(key in meta));
      throw refusal(
        INVALID_PARAMS,
        `Invalid params: the MCP-Protocol-Version header names protocol revision ${headers.protocolVersion}, but the request is missing the required per-request envelope key(s): ${missing.join(', ')}`,
        { envelope: { missing } },
      );
    }
    return LEGACY;
  }
  const problem = envelopeProblem(meta);
  if (problem) throw refusal(INVALID_PARAMS, `Invalid _meta envelope for protocol revision 2026-07-28: ${quoted(problem.key)}: ${problem.problem}`, { envelope: problem });
  const version = meta[PROTOCOL_VERSION_KEY] as string;
  if (headers.protocolVersion !== undefined && headers.protocolVersion !== version) {
    throw mismatch(headers.protocolVersion, `the body envelope names protocol version ${quoted(version)} but the MCP-Protocol-Version header names ${quoted(headers.protocolVersion)}`);
  }
  if (headers.method !== undefined && headers.method !== rpc.method) {
    throw mismatch(headers.method, `the body names method ${quoted(rpc.method)} but the Mcp-Method header names ${quoted(headers.method)}`);
  }
  if (!(STATELESS_VERSIONS as readonly string[]).includes(version)) {
    throw refusal(UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${quoted(version)}`, { supported: [...STATELESS_VERSIONS], requested: quoted(version) });
  }
  checkRequiredHeaders(headers, rpc, version);
  return { stateless: true, version, clientCapabilities: meta[CLIENT_CAPABILITIES_KEY] as Record<string, unknown> };
}
