/**
 * One question to an OpenAI-compatible chat-completions endpoint (`POST <base>/chat/completions`,
 * answer `choices[0].message.content`). The endpoint must resolve to public addresses unless
 * private ones are allowed (the workflow webhooks' check), each request has a time limit, and an
 * answer larger than MAX_ANSWER_BYTES is abandoned. The key goes only into the authorization header.
 */
import http from 'node:http';
import https from 'node:https';
import type { LlmConfig } from '../config.ts';
import { checkedLookup, literalRefusal } from '../workflows/actions/public-address.ts';

export const MAX_ANSWER_BYTES = 256 * 1024;

export type ChatAnswer = { ok: true; model: string; content: string } | { ok: false; error: string };

function post(url: URL, body: string, config: LlmConfig): Promise<{ status: number; text: string }> {
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Storelens-AI-Visibility' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: 'POST', headers, lookup: checkedLookup(config.allowPrivate) as never, timeout: config.timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) return request.destroy(new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${config.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

function contentOf(text: string): { model: unknown; content: unknown } {
  try {
    const parsed = JSON.parse(text) as { model?: unknown; choices?: { message?: { content?: unknown } }[] };
    return { model: parsed.model, content: parsed.choices?.[0]?.message?.content };
  } catch {
    return { model: undefined, content: undefined };
  }
}

export async function askChat(config: LlmConfig, question: string): Promise<ChatAnswer> {
  const url = new URL(`${config.url}/chat/completions`);
  const refused = literalRefusal(url, config.allowPrivate);
  if (refused) return { ok: false, error: `refused: ${refused}` };
  const body = JSON.stringify({ model: config.model, messages: [{ role: 'user', content: question }] });
  let answer: { status: number; text: string };
  try {
    answer = await post(url, body, config);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (answer.status < 200 || answer.status >= 300) return { ok: false, error: `answered ${answer.status}` };
  const { model, content } = contentOf(answer.text);
  if (typeof content !== 'string') return { ok: false, error: 'answer has no choices[0].message.content' };
  return { ok: true, model: typeof model === 'string' && model ? model.slice(0, 200) : config.model, content };
}
