/**
 * One question to an OpenAI-compatible chat-completions endpoint (`POST <base>/chat/completions`,
 * answer `choices[0].message.content`). The endpoint must resolve to public addresses unless
 * private ones are allowed (the workflow webhooks' check), each request has a deadline over the
 * whole call (`STORELENS_LLM_TIMEOUT_MS`), and an answer larger than MAX_ANSWER_BYTES is abandoned
 * as it streams in (`callOutbound`). The key goes only into the authorization header.
 */
import type { LlmConfig } from '../config.ts';
import { callOutbound } from '../kit/outbound.ts';
import { PrivateAddress } from '../kit/public-address.ts';

export const MAX_ANSWER_BYTES = 256 * 1024;

export type ChatAnswer = { ok: true; model: string; content: string } | { ok: false; error: string };

async function post(url: URL, body: string, config: LlmConfig): Promise<{ status: number; text: string }> {
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Storelens-AI-Visibility' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const answer = await callOutbound(url, {
    method: 'POST',
    headers,
    body,
    deadlineMs: config.timeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
    publicOnly: !config.allowPrivate,
  });
  return { status: answer.status, text: answer.body.toString('utf8') };
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
  const body = JSON.stringify({ model: config.model, messages: [{ role: 'user', content: question }] });
  let answer: { status: number; text: string };
  try {
    answer = await post(url, body, config);
  } catch (error) {
    return { ok: false, error: error instanceof PrivateAddress ? `refused: ${error.message}` : (error as Error).message };
  }
  if (answer.status < 200 || answer.status >= 300) return { ok: false, error: `answered ${answer.status}` };
  const { model, content } = contentOf(answer.text);
  if (typeof content !== 'string') return { ok: false, error: 'answer has no choices[0].message.content' };
  return { ok: true, model: typeof model === 'string' && model ? model.slice(0, 200) : config.model, content };
}
