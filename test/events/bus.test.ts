import { describe, expect, it } from 'vitest';
import { EventBus, type Log } from '../../src/events/bus.js';

interface TestEvents {
  'thing.done': { id: number };
  'thing.followed': { id: number };
}

/** A logger that keeps its error lines. */
function recordingLog() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    error: (fields: Record<string, unknown>, message: string) => {
      lines.push({ fields, message });
    },
  } as unknown as Log;
  return { log, lines };
}

describe('EventBus', () => {
  it('runs the subscribers of a type in the order they subscribed, and only those', async () => {
    const { log } = recordingLog();
    const bus = new EventBus<TestEvents>(log);
    const seen: string[] = [];
    bus.subscribe('thing.done', 'first', async ({ id }) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen.push(`first ${id}`);
    });
    bus.subscribe('thing.done', 'second', ({ id }) => {
      seen.push(`second ${id}`);
    });
    bus.subscribe('thing.followed', 'other', () => {
      seen.push('other');
    });
    await bus.publish('thing.done', { id: 7 });
    // publish resolves after every subscriber ran (the slow first one included).
    expect(seen).toEqual(['first 7', 'second 7']);
  });

  it('a failing subscriber is logged with its name; the others run; publish resolves', async () => {
    const { log, lines } = recordingLog();
    const bus = new EventBus<TestEvents>(log);
    const seen: number[] = [];
    bus.subscribe('thing.done', 'broken thing', () => {
      throw new Error('boom');
    });
    bus.subscribe('thing.done', 'async broken thing', async () => {
      throw new Error('async boom');
    });
    bus.subscribe('thing.done', 'working thing', ({ id }) => {
      seen.push(id);
    });
    await expect(bus.publish('thing.done', { id: 1 })).resolves.toBeUndefined();
    expect(seen).toEqual([1]);
    expect(lines.map((l) => l.message)).toEqual([
      'broken thing failed',
      'async broken thing failed',
    ]);
    expect(lines[0].fields).toMatchObject({ event: 'thing.done', subscriber: 'broken thing' });
    expect((lines[0].fields.err as Error).message).toBe('boom');
  });

  it('withLog: subscribers, and the events they publish in turn, log through that logger', async () => {
    const app = recordingLog();
    const request = recordingLog();
    const bus = new EventBus<TestEvents>(app.log);
    const seen: string[] = [];
    bus.subscribe('thing.done', 'follower', async ({ id }, { events }) => {
      seen.push('done');
      await events.publish('thing.followed', { id });
      seen.push('after follow-up');
    });
    bus.subscribe('thing.followed', 'failing follow-up', () => {
      seen.push('followed');
      throw new Error('follow-up failed');
    });
    await bus.withLog(request.log).publish('thing.done', { id: 2 });
    // A follow-up event is delivered before its publisher goes on.
    expect(seen).toEqual(['done', 'followed', 'after follow-up']);
    expect(request.lines.map((l) => l.message)).toEqual(['failing follow-up failed']);
    expect(app.lines).toEqual([]);
  });

  it('an event nobody subscribed to is published without effect', async () => {
    const { log, lines } = recordingLog();
    await new EventBus<TestEvents>(log).publish('thing.followed', { id: 3 });
    expect(lines).toEqual([]);
  });
});
