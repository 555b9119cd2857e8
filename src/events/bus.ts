import type { BaseLogger } from 'pino';

/** What a subscriber logs through: the logger of the request that published, by default. */
export type Log = Pick<BaseLogger, 'error'>;

export interface Publisher<Events extends object> {
  /**
   * Runs every subscriber of `type`, one after the other in the order they subscribed, and
   * resolves when all have run. Never rejects: a subscriber that fails is logged.
   */
  publish<K extends keyof Events>(type: K, event: Events[K]): Promise<void>;
}

/** What a subscriber gets besides the event: where to log, and where to publish follow-ups. */
export interface EventContext<Events extends object> {
  log: Log;
  events: Publisher<Events>;
}

export type Subscriber<Events extends object, K extends keyof Events> = (
  event: Events[K],
  context: EventContext<Events>,
) => Promise<void> | void;

interface Subscription<Events extends object> {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: each list holds subscribers of one event type
  handle: Subscriber<Events, any>;
}

/**
 * An in-process event bus (after Vendure's): a change publishes what happened once its
 * transaction has committed, and the areas that react to it (random controls,
 * notifications) subscribe at start, in their own folders, instead of being called by the
 * area that made the change.
 *
 * Delivery is synchronous with the publisher: `publish` resolves once every subscriber has
 * run, so what they do (a random control, a WebSocket message) is done before the request
 * that published answers. Subscribers run in the order they subscribed. A subscriber that
 * throws is logged (`<name> failed`) and the others still run: the change it reacts to has
 * committed, so its request answers as if there were no subscriber.
 */
export class EventBus<Events extends object> implements Publisher<Events> {
  private readonly subscriptions = new Map<keyof Events, Subscription<Events>[]>();

  /** `log`: for events published without a request (and in tests). */
  constructor(private readonly log: Log) {}

  /** `name` says who reacts, in the log line of a failure: "`name` failed". */
  subscribe<K extends keyof Events>(type: K, name: string, handle: Subscriber<Events, K>): void {
    const list = this.subscriptions.get(type) ?? [];
    list.push({ name, handle });
    this.subscriptions.set(type, list);
  }

  publish<K extends keyof Events>(type: K, event: Events[K]): Promise<void> {
    return this.withLog(this.log).publish(type, event);
  }

  /** A publisher whose subscribers log through `log` (a request's, with its id). */
  withLog(log: Log): Publisher<Events> {
    const publisher: Publisher<Events> = {
      publish: async (type, event) => {
        for (const { name, handle } of [...(this.subscriptions.get(type) ?? [])]) {
          try {
            await handle(event, { log, events: publisher });
          } catch (error) {
            log.error({ err: error, event: type, subscriber: name }, `${name} failed`);
          }
        }
      },
    };
    return publisher;
  }
}
