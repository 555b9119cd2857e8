import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message with quoted-printable decoded (headers, text and HTML parts). */
  content: string;
}

export interface SmtpReceiver {
  /** smtp://127.0.0.1:<port> */
  url: string;
  messages: ReceivedMail[];
  /** The first message (already received or still to come) to `to`, after `skip` of them. */
  next(to: string, skip?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Soft line breaks and `=XX` escapes; enough for the ASCII mails of the service. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A real SMTP server in-process (no TLS, authentication optional) that keeps what it gets. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push({
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          content: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        for (const wake of waiting) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');

  const find = (to: string, skip: number) =>
    messages.filter((m) => m.to.includes(to))[skip] as ReceivedMail | undefined;

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    next(to, skip = 0, timeoutMs = 5000) {
      const found = find(to, skip);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const message = find(to, skip);
          if (!message) return;
          clearTimeout(timer);
          waiting.delete(wake);
          resolve(message);
        };
        const timer = setTimeout(() => {
          waiting.delete(wake);
          reject(new Error(`no e-mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (taken, then released). */
export { freePort as closedPort } from '../helpers/process.js';

export const codeIn = (mail: ReceivedMail) => /new password: (\d{6})/.exec(mail.content)?.[1];

/** The restore link and its code, as e-mailed. */
export function linkIn(mail: ReceivedMail): { link: string; path: string; code: string } {
  const match = /(https?:\/\/[^\s"<]+\/users\/restore-password\/([A-Za-z0-9_-]+)\/)/.exec(
    mail.content,
  );
  if (!match) throw new Error('no restore link in the e-mail');
  const url = new URL(match[1]);
  return { link: match[1], path: url.pathname, code: match[2] };
}
