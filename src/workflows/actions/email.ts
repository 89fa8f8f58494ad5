/**
 * notify_email through the SMTP server of `STORELENS_SMTP_URL` (nodemailer); without one the
 * action is recorded as skipped, so a workflow still runs its other actions.
 */
import nodemailer from 'nodemailer';
import type { ActionOutcome } from '../../store/app/workflows.ts';
import type { Firing } from '../firing.ts';

export interface Mailer {
  send(to: string, firing: Firing): Promise<ActionOutcome>;
  close(): void;
}

const SMTP_TIMEOUT_MS = 10_000;

export function createMailer(smtpUrl: string | null, from: string): Mailer {
  if (!smtpUrl) {
    return {
      send: async () => ({ type: 'notify_email', status: 'skipped', detail: 'e-mail is not configured (STORELENS_SMTP_URL)' }),
      close() {},
    };
  }
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    async send(to, firing) {
      try {
        const info = await transport.sendMail({
          from,
          to,
          subject: `Storelens workflow fired: ${firing.workflow.name}`,
          text: `${firing.summary}\n\nFired at ${firing.fired_at}.\n\n${JSON.stringify(firing.values, null, 2)}\n`,
        });
        return { type: 'notify_email', status: 'done', detail: `sent to ${to} (${String(info.response ?? 'accepted')})` };
      } catch (error) {
        return { type: 'notify_email', status: 'failed', detail: (error as Error).message };
      }
    },
    close: () => transport.close(),
  };
}
