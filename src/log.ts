import pino, { type Logger } from 'pino';

/** Structured logs on stderr; quiet (warn) by default. Credentials never reach the log. */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers["client-secret"]',
          'req.headers.authorization',
          'req.headers["x-try-on-session"]',
          'headers["x-api-key"]',
          'headers["client-secret"]',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination(2),
  );
}
