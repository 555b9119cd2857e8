import { api, type Checkout, type Control } from './api';

/** The WebSocket messages the console reacts to (docs/http-contract.md, Notifications). */
export type LiveEvent =
  | { type: 'cart.checked_out'; data: { cart: number; checkout: Checkout }; created: string }
  | { type: 'cart.checkout_failed'; data: { cart: number; status: number }; created: string }
  | { type: 'control.created'; data: { control: Control }; created: string }
  | { type: 'control.verified'; data: { control: Control }; created: string };

/** The latest event, with a counter so an equal event still triggers a reload. */
export interface Live {
  event: LiveEvent | null;
  seq: number;
}

export type LiveStatus = 'connecting' | 'live' | 'offline';

/**
 * Listens on the notification WebSocket (a fresh connection code each time), reconnecting
 * after a drop. Returns the function that stops it.
 */
export function listen(onEvent: (event: LiveEvent) => void, onStatus: (s: LiveStatus) => void) {
  let stopped = false;
  let socket: WebSocket | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const again = () => {
    onStatus('offline');
    if (!stopped) retry = setTimeout(connect, 2000);
  };

  async function connect(): Promise<void> {
    onStatus('connecting');
    const { data } = await api.POST('/api/v1/websocket-notifications/groups/').catch(() => ({
      data: undefined,
    }));
    if (stopped) return;
    if (!data) return again();
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(
      `${scheme}//${location.host}/ws/notifications/?code=${encodeURIComponent(data.code)}`,
    );
    socket.onopen = () => onStatus('live');
    socket.onmessage = (message) => {
      try {
        onEvent(JSON.parse(String(message.data)) as LiveEvent);
      } catch {
        // Not a message of the contract: ignored.
      }
    };
    socket.onclose = again;
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    socket?.close();
  };
}
