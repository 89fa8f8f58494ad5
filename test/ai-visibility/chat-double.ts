/**
 * A local double of an OpenAI-compatible chat-completions endpoint for the AI-visibility tests. It
 * answers POST /v1/chat/completions with the chat completion object of the OpenAI API reference
 * (id, object "chat.completion", created, model, choices[].message {role, content},
 * finish_reason, usage); the test picks each reply by the question: an answer's content, another
 * status with its body, `hold` (no answer until the double closes), or `dribble` (the answer's
 * headers at once, then its body one byte every 100 ms: never silent for long, never done soon).
 * Every request is kept.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply = { content: string } | { status: number; body: string } | 'hold' | { dribble: string };

export interface ChatDouble {
  /** The base URL to configure (`STORELENS_LLM_URL`). */
  url: string;
  requests: { authorization?: string; body: any }[];
  close(): void;
}

export const DOUBLE_MODEL = 'gpt-4o-mini-2024-07-18';

export function completion(content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: DOUBLE_MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 },
  };
}

function dribble(response: http.ServerResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer);
    response.write(text[sent++]!);
    if (sent === text.length) {
      clearInterval(timer);
      response.end();
    }
  }, 100);
  response.on('close', () => clearInterval(timer));
}

export async function startChatDouble(reply: (question: string) => Reply | Promise<Reply>): Promise<ChatDouble> {
  const requests: ChatDouble['requests'] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', async () => {
      const body = JSON.parse(text);
      requests.push({ authorization: request.headers.authorization, body });
      if (request.url !== '/v1/chat/completions') return response.writeHead(404).end();
      const answer = await reply(body.messages[0].content as string);
      if (answer === 'hold') return void held.push(response);
      if ('dribble' in answer) return dribble(response, JSON.stringify(completion(answer.dribble)));
      if ('status' in answer) return response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(answer.content)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close() {
      for (const response of held) response.destroy();
      server.close();
    },
  };
}
