import type { IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import type { Session, TestContext } from '../helpers/app.js';

export interface Message {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the fields of each event type
  data: any;
  created: string;
}

/** A connected test client: messages queue up until a test takes them, in order. */
export interface Client {
  socket: WebSocket;
  /** The next message (waits up to `timeoutMs`). */
  next(timeoutMs?: number): Promise<Message>;
  /** Resolves with the close code once the server closed the connection. */
  closed: Promise<number>;
  close(): void;
}

export const wsUrl = (baseUrl: string, code: string) =>
  `${baseUrl.replace(/^http/, 'ws')}/ws/notifications/?code=${encodeURIComponent(code)}`;

export async function issueCode(ctx: TestContext, session: Session): Promise<string> {
  const answer = await ctx.request('POST', '/api/v1/websocket-notifications/groups/', {
    token: session.token,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.code;
}

export function open(
  url: string,
  options: { autoPong?: boolean; origin?: string } = {},
): Promise<Client> {
  const socket = new WebSocket(url, { autoPong: options.autoPong ?? true, origin: options.origin });
  const queue: Message[] = [];
  const waiting: ((m: Message) => void)[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    socket.once('open', () =>
      resolve({
        socket,
        closed,
        close: () => socket.close(),
        next(timeoutMs = 5000) {
          const queued = queue.shift();
          if (queued) return Promise.resolve(queued);
          return new Promise((res, rej) => {
            const timer = setTimeout(() => {
              waiting.splice(waiting.indexOf(waiter), 1);
              rej(new Error(`no message within ${timeoutMs} ms`));
            }, timeoutMs);
            const waiter = (m: Message) => {
              clearTimeout(timer);
              res(m);
            };
            waiting.push(waiter);
          });
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** A client of the session's user on the context's app (a fresh code each time). */
export async function connect(
  ctx: TestContext,
  session: Session,
  options: { autoPong?: boolean; baseUrl?: string } = {},
): Promise<Client> {
  const code = await issueCode(ctx, session);
  return open(wsUrl(options.baseUrl ?? ctx.url, code), options);
}

/** The HTTP answer to an upgrade the server refuses (no WebSocket is opened). */
export function refused(
  url: string,
  options: { origin?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { origin: options.origin });
    socket.on('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk;
      });
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(text),
          headers: response.headers,
        });
        socket.terminate();
      });
    });
    socket.on('error', () => {});
  });
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
