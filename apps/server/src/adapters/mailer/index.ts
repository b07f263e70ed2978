import nodemailer from 'nodemailer';
import type { MailConfig } from '../../config/people';

/** One message, ready to hand to SMTP. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Sends one message; throws when the SMTP server refuses it or cannot be reached in time. */
export interface Mailer {
  /** False when `SMTP_URL` is unset: nothing is sent. */
  enabled: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Time limits for one SMTP conversation, so a slow server cannot hold a sender forever. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * The SMTP adapter (nodemailer) from `config.mail` (`SMTP_URL`, `MAIL_FROM`): off when unset. Only the outbox of the
 * mail module calls it, in the background; a request never waits on SMTP.
 */
export function createMailer(config: MailConfig): Mailer {
  if (!config) {
    return {
      enabled: false,
      send: () => Promise.reject(new Error('email is off on this server (SMTP_URL unset)')),
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport({ url: config.smtpUrl, ...TIMEOUTS });
  const from = config.from;
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}
