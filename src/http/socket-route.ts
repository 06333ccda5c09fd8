// WebSocket routes as handlers see them: a small socket interface and a route table entry, with no uWS types.

/** An open WebSocket: text out, close, and how much is still queued for the client. */
export interface Socket {
  /**
   * Queues one text message. Returns false when the socket is closed, or when this message took the queue past
   * the bound (the socket is then closed with 1013, and the session's `closed` runs before `send` returns).
   */
  send(text: string): boolean;
  /** Receives every message published to `topic` from now on (after anything sent to it before). */
  subscribe(topic: string): void;
  /** Stops receiving `topic`. */
  unsubscribe(topic: string): void;
  /** Bytes queued for this client and not yet written to the network. */
  bufferedAmount(): number;
  /** Queued bytes past which the socket is closed with 1013 (a slow reader). */
  readonly bufferLimit: number;
  /** Closes with `code` (1000 by default) and a short reason (at most 123 bytes); does nothing once closed. */
  close(code?: number, reason?: string): void;
  /** False once closed, by either side. */
  readonly isOpen: boolean;
}

/** How a socket authenticated: the X-API-Key header at upgrade, the first message (parsed, so a route can read more of it, such as `since`), or not at all on a public route. */
export type SocketAuth = { via: 'header' } | { via: 'message'; message: Record<string, unknown> } | { via: 'none' };

/** What a route knows of the request that opened the socket, copied at upgrade. */
export interface SocketRequest {
  /** Query of the upgrade URL (for example `?since=N`). */
  query: URLSearchParams;
  remoteAddress: string;
  auth: SocketAuth;
}

/** Handlers of one connection, returned by `SocketRoute.open`. */
export interface SocketSession {
  /** A text message from the client; a binary message closes the socket with 1003 instead. */
  message?(text: string): void;
  /** Everything queued was written: the client reads again. */
  drain?(): void;
  /** The socket closed (`code` 1006 when no close frame came); the socket must not be used after this. */
  closed?(code: number, reason: string): void;
}

/** Sends one message to every socket subscribed to a topic, on every listener (HTTP and HTTPS), in native code. */
export interface Fanout {
  publish(topic: string, message: string): void;
}

/** One WebSocket operation, mounted at `/api/v1` + `path`. */
export interface SocketRoute {
  /** Path below `/api/v1`, e.g. `/events`. */
  path: string;
  summary: string;
  /** Defaults to true: the API key by header at upgrade, or as `{"type":"auth","apiKey":"..."}` first message (events.md). */
  auth?: boolean;
  /** Called once, when the server takes the route, with the publish of topics to subscribed sockets. */
  attach?(fanout: Fanout): void;
  /** Called once the socket is open and authenticated; a throw closes it with 1011. */
  open(socket: Socket, request: SocketRequest): SocketSession;
}

/** Limits and timers of every WebSocket the server holds. */
export interface SocketSettings {
  /** Milliseconds a client without the header has to send its auth message before it is closed with 4408. */
  authTimeoutMs: number;
  /** More than this many bytes queued for one client closes it with 1013: a slow reader never holds memory or others. */
  maxBufferedBytes: number;
  /** Largest message a client may send, in bytes; a bigger one closes the connection. */
  maxMessageBytes: number;
  /** Seconds of silence before a client is dropped; the device pings first (uWS resolution is about 4 s). */
  idleTimeoutSeconds: number;
}

/** events.md: 5 s to authenticate, 1 MiB queued at most, 120 s of silence; 16 KiB client messages. */
export const DEFAULT_SOCKET_SETTINGS: SocketSettings = {
  authTimeoutMs: 5000,
  maxBufferedBytes: 1024 * 1024,
  maxMessageBytes: 16 * 1024,
  idleTimeoutSeconds: 120,
};
