// The device's event socket: first-message auth, resume from the last event seen, reconnect with backoff.
import { isEvent } from './api';
import type { DeviceEvent } from './types';

/** What the socket tells its owner. */
export interface LiveHandlers {
  /** One event, in order. */
  event(event: DeviceEvent): void;
  /** Events may have been missed (first connection, a restart of the device, a gap): re-read state. */
  reset(): void;
  /** The key was refused (close code 4401). */
  refused(): void;
  /** Connected or not, for the page's live indicator. */
  connected(up: boolean): void;
}

const MAX_BACKOFF_MS = 30_000;
/** The close reason (with 4401) of a socket whose key was replaced, as the daemon sends it. */
const KEY_CHANGED = 'API key changed';
/** How often the device is asked to probe printers' status while this page listens (its floor, 2 s). */
const STATUS_INTERVAL_MS = 2000;

/** One socket at a time to /api/v1/events on the page's own host; `close` stops it for good. */
export class LiveEvents {
  private socket: WebSocket | null = null;
  private lastId: number | null = null;
  private bootId: string | null = null;
  private backoffMs = 1000;
  private timer: number | undefined;
  private closed = false;

  constructor(private key: string, private readonly handlers: LiveHandlers) {
    this.open();
  }

  /** Authenticates later connections with `key` (after a rotation); the open one stays. */
  setKey(key: string): void {
    this.key = key;
  }

  /** Closes the socket and stops reconnecting. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.close(1000);
  }

  private open(): void {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/events`;
    const socket = new WebSocket(url);
    this.socket = socket;
    // printers' status every 2 s while the page is open (the device's default is 5 s), so a paper-out shows within 3 s
    socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', apiKey: this.key, statusIntervalMs: STATUS_INTERVAL_MS, ...(this.lastId !== null ? { since: this.lastId } : {}) }));
    socket.onmessage = (message) => this.receive(JSON.parse(String(message.data)));
    socket.onclose = (close) => this.closedWith(close.code, close.reason);
  }

  private receive(message: any): void {
    if (message?.type === 'hello') {
      this.backoffMs = 1000;
      const sameRun = this.bootId === message.bootId && this.lastId !== null;
      this.bootId = message.bootId;
      this.handlers.connected(true);
      if (!sameRun) {
        this.lastId = message.lastId;
        this.handlers.reset();
      }
    } else if (message?.type === 'reset') {
      this.handlers.reset();
    } else if (isEvent(message)) {
      this.lastId = message.id;
      this.handlers.event(message);
    }
  }

  private closedWith(code: number, reason: string): void {
    this.socket = null;
    this.handlers.connected(false);
    if (this.closed) return;
    // 4401 'API key changed': the key was rotated (maybe by this page, whose answer brings the new key): reconnect, and
    // only a key refused then signs out
    if (code === 4401 && reason !== KEY_CHANGED) {
      this.handlers.refused();
      return;
    }
    this.timer = window.setTimeout(() => this.open(), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }
}
