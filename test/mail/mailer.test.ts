import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/mail/mailer.js';
import { BackgroundJobs } from '../../src/users/jobs.js';
import { capturingLog } from '../helpers/log.js';
import { closedPort, type SmtpReceiver, startSmtpReceiver } from './smtp.js';

const message = {
  to: 'anna@example.com',
  subject: 'Hello',
  text: 'Plain text 123456',
  html: '<p>HTML <strong>123456</strong></p>',
};

describe('mailer', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('without SMTP_URL writes the message text to the log at level info', async () => {
    const { log, lines } = capturingLog<Record<string, unknown>>();
    const mailer = createMailer({ smtpUrl: undefined, from: 'no-reply@localhost', log });
    await mailer.send(message);
    await mailer.close();
    const line = lines.find((l) => l.mail !== undefined) as {
      level: number;
      mail: { to: string; subject: string; text: string };
    };
    expect(line.level).toBe(30);
    expect(line.mail).toEqual({ to: message.to, subject: 'Hello', text: 'Plain text 123456' });
  });

  it('with SMTP_URL sends text and HTML from MAIL_FROM over SMTP', async () => {
    const { log } = capturingLog();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'shop@example.com', log });
    await mailer.send(message);
    await mailer.close();
    const mail = await smtp.next('anna@example.com');
    expect(mail.from).toBe('shop@example.com');
    expect(mail.content).toContain('Subject: Hello');
    expect(mail.content).toContain('text/plain');
    expect(mail.content).toContain('Plain text 123456');
    expect(mail.content).toContain('text/html');
    expect(mail.content).toContain('<strong>123456</strong>');
  });

  it('in production without SMTP_URL a send fails and writes nothing to the log', async () => {
    const { log, lines } = capturingLog();
    const mailer = createMailer({ smtpUrl: undefined, from: 'a@b.c', log, production: true });
    await expect(mailer.send(message)).rejects.toThrow(/SMTP_URL/);
    expect(lines).toEqual([]);
  });

  it('at most `max` background jobs run at once: more are dropped, each counted and logged', async () => {
    const { log, lines } = capturingLog<Record<string, unknown>>();
    const jobs = new BackgroundJobs(log, 3);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const added = Array.from({ length: 10 }, () => jobs.add('test job', () => gate));
    expect(added.filter(Boolean)).toHaveLength(3);
    expect(jobs.dropped).toBe(7);
    const drops = lines.filter((l) => String(l.msg).includes('dropped'));
    expect(drops.map((l) => l.dropped)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    release();
    await jobs.idle();
    expect(jobs.add('test job', async () => {})).toBe(true);
    await jobs.idle();
  });

  it('a send failure in the background is logged without the address, and idle() waits', async () => {
    const { log, lines } = capturingLog();
    const port = await closedPort();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'a@b.c', log });
    const background = new BackgroundJobs(log);
    background.add('test e-mail', () => mailer.send(message));
    await background.idle();
    const line = lines.find((l) => l.msg === 'test e-mail: not sent');
    expect(line?.level).toBe(40);
    expect(JSON.stringify(lines)).not.toContain('anna@example.com');
    expect(JSON.stringify(lines)).not.toContain('123456');
  });
});
