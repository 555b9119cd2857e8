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
  /** Connection, greeting and socket timeout of the SMTP client. */
  timeoutMs?: number;
}

/** SMTP when `SMTP_URL` is set; otherwise the message is written to the log (dev). */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options) : logMailer(options.log);
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

/**
 * Sends without holding up the caller: the answer of a request never depends on the mail
 * (a failure is logged, never shown). close() waits for sends still under way.
 */
export class BackgroundMailer {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
  ) {}

  enqueue(message: MailMessage, what: string): void {
    const sending = this.mailer
      .send(message)
      .catch((error: unknown) => {
        const code = (error as { code?: string }).code;
        // No address and no content in the log: the code in the mail is a credential.
        this.log.warn(
          { err: { message: String((error as Error)?.message), code } },
          `${what}: not sent`,
        );
      })
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    await this.mailer.close();
  }
}
