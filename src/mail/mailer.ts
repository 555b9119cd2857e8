import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  /** NODE_ENV=production: without SMTP_URL nothing is sent, and nothing written to the log. */
  production?: boolean;
  /** Connection, greeting and socket timeout of the SMTP client. */
  timeoutMs?: number;
}

/**
 * SMTP when `SMTP_URL` is set; otherwise, in development, the message is written to the log.
 * In production without SMTP_URL every send fails: a mail holds a credential (a restore code
 * or link), and a production log must never hold one.
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) return smtpMailer(options.smtpUrl, options);
  return options.production ? noMailer() : logMailer(options.log);
}

/** Whether mails can be sent or shown: false in production without SMTP_URL. */
export const canMail = (options: Pick<MailerOptions, 'smtpUrl' | 'production'>) =>
  Boolean(options.smtpUrl) || !options.production;

function noMailer(): Mailer {
  return {
    async send() {
      throw new Error('no mail server: SMTP_URL is not set (NODE_ENV=production)');
    },
    async close() {},
  };
}

function smtpMailer(url: string, options: MailerOptions): Mailer {
  const timeout = options.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
    async close() {
      transport.close();
    },
  };
}

function logMailer(log: FastifyBaseLogger): Mailer {
  return {
    async send({ to, subject, text }) {
      log.info({ mail: { to, subject, text } }, 'e-mail (SMTP_URL is not set, so it is logged)');
    },
    async close() {},
  };
}
