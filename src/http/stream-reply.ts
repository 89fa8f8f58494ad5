import type { FastifyReply } from 'fastify';

/** The client went away (or stopped reading for STALL_MS) while a stream was being sent. */
export class ClientGone extends Error {
  constructor(reason: string) {
    super(`client gone: ${reason}`);
  }
}

/**
 * How long a stream waits for a client that reads nothing before it gives up. The engine query
 * of the stream waits with it (backpressure), so a stalled client must not hold it for long.
 */
export const STALL_MS = 60_000;

export interface StreamHead {
  contentType: string;
  /** The download's file name (Content-Disposition: attachment). */
  filename: string;
}

/**
 * Sends `chunks` as a 200 answer with backpressure: the next chunk is pulled only once the
 * socket took the last one. Nothing is sent before the first chunk is there, so a read that
 * fails at once is still answered with its error status by the caller. Once the answer has
 * started, a failure cuts the connection (the client sees an unfinished transfer, never a body
 * that looks whole), and a client that leaves or stalls stops the pull; both throw, so that
 * whoever produces the chunks stops too.
 */
export async function sendStream(reply: FastifyReply, head: StreamHead, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    const first = await iterator.next();
    const raw = reply.raw;
    // A client may have gone while the engine made the first chunk: its 'close' has been emitted then.
    let closed = raw.destroyed;
    raw.once('close', () => {
      closed = true;
    });
    reply.hijack();
    // Headers set on the reply so far (rate limits) go out with the raw answer.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
    raw.writeHead(200, {
      'content-type': head.contentType,
      'content-disposition': `attachment; filename="${head.filename}"`,
      'cache-control': 'no-store',
    });
    const write = async (chunk: Uint8Array) => {
      if (closed) throw new ClientGone('closed');
      if (raw.write(chunk)) return;
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          clearTimeout(timer);
          raw.off('drain', onDrain);
          raw.off('close', onClose);
          if (error) reject(error);
          else resolve();
        };
        const onDrain = () => done();
        const onClose = () => done(new ClientGone('closed'));
        const timer = setTimeout(() => done(new ClientGone(`read nothing for ${STALL_MS / 1000} s`)), STALL_MS);
        raw.once('drain', onDrain);
        raw.once('close', onClose);
      });
    };
    try {
      for (let next = first; !next.done; next = await iterator.next()) await write(next.value);
    } catch (error) {
      raw.destroy();
      throw error;
    }
    raw.end();
  } finally {
    await iterator.return?.();
  }
}
