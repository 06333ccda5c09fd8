// Mounts the WebSocket routes on a uWS app: authentication at upgrade or by first message, and the socket handed to routes.
import { httpErrorOf } from './error-status';
import type { Logger } from '../log';
import type { ApiAuth } from './auth';
import { checkSocketOrigin } from './socket-origin';
import type { Socket, SocketAuth, SocketRoute, SocketSession, SocketSettings } from './socket-route';
import type { HttpRequest, HttpResponse, TemplatedApp, WebSocket } from './uws';

/** Runs `upgrade` inside the server's request handling, answering the JSON error envelope instead when it throws. */
export type UpgradeGate = (res: HttpResponse, req: HttpRequest, upgrade: (apiKey: string, remoteAddress: () => string) => void) => void;

/** Collaborators of the hub. */
export interface SocketHubDeps {
  routes: readonly SocketRoute[];
  auth: ApiAuth;
  settings: SocketSettings;
  logger: Logger;
  /** Path prefix of every route (`/api/v1`). */
  prefix: string;
  /** The allowedOrigins setting: a browser upgrade from another origin is refused with 403. */
  allowedOrigins: () => readonly string[];
  gate: UpgradeGate;
}

interface Conn {
  route: SocketRoute;
  query: string;
  remoteAddress: string;
  /** Null until the first message authenticates. */
  auth: SocketAuth | null;
  socket: UwsSocket | null;
  session: SocketSession | null;
  timer: NodeJS.Timeout | null;
}

/** Serves the WebSocket route table and keeps track of open sockets so the server can close them on shutdown. */
export class SocketHub {
  /** Open sockets and their connection (its auth says whether a key opened it). */
  private readonly open = new Map<UwsSocket, Conn>();
  private readonly apps: TemplatedApp[] = [];

  constructor(private readonly deps: SocketHubDeps) {
    const fanout = { publish: (topic: string, message: string) => this.apps.forEach((app) => app.publish(topic, message, false, false)) };
    for (const route of deps.routes) route.attach?.(fanout);
  }

  /** Registers every route on `app` (before the app's catch-all routes). */
  mount(app: TemplatedApp): void {
    const { settings } = this.deps;
    this.apps.push(app);
    for (const route of this.deps.routes) {
      app.ws<Conn>(this.deps.prefix + route.path, {
        maxPayloadLength: settings.maxMessageBytes,
        // our bound (1013) is checked at every send and, for published events, within 50 ms or half a bound of bytes
        // (event-topics.ts): no queue reaches 2x; uWS skips a subscriber only past 4x, so that never happens first.
        // closeOnBackpressureLimit stays off: with it, uWS 20.30 dropped clients in the middle of a replay.
        maxBackpressure: settings.maxBufferedBytes * 4,
        idleTimeout: settings.idleTimeoutSeconds,
        sendPingsAutomatically: true,
        upgrade: (res, req, context) => this.upgrade(route, res, req, (conn, key, extensions) => res.upgrade(conn, key, '', extensions, context)),
        open: (ws) => this.opened(ws),
        message: (ws, message, isBinary) => this.received(ws.getUserData(), message, isBinary),
        drain: (ws) => this.call(ws.getUserData(), (s) => s.drain?.()),
        close: (ws, code, message) => this.closed(ws.getUserData(), code, Buffer.from(message).toString('utf8')),
      });
    }
  }

  /** Closes every open socket with `code` (1001, going away, by default). */
  closeAll(code = 1001, reason = 'Server shutting down'): void {
    for (const socket of [...this.open.keys()]) socket.close(code, reason);
  }

  /** Closes every socket that an API key opened (header or auth message) with `code`; public routes and sockets still waiting for their auth message stay open. */
  closeAuthenticated(code: number, reason: string): void {
    for (const [socket, conn] of [...this.open]) if (conn.auth && conn.auth.via !== 'none') socket.close(code, reason);
  }

  private upgrade(route: SocketRoute, res: HttpResponse, req: HttpRequest, accept: (conn: Conn, key: string, extensions: string) => void): void {
    const key = req.getHeader('sec-websocket-key');
    const extensions = req.getHeader('sec-websocket-extensions');
    const query = req.getQuery() ?? '';
    const origin = req.getHeader('origin');
    const host = req.getHeader('host');
    this.deps.gate(res, req, (apiKey, remoteAddress) => {
      checkSocketOrigin(origin, host, this.deps.allowedOrigins());
      const auth = this.authAtUpgrade(route, apiKey, remoteAddress);
      accept({ route, query, remoteAddress: remoteAddress(), auth, socket: null, session: null, timer: null }, key, extensions);
    });
  }

  /** The header key is checked now (401/429 refuse the upgrade); without one, only an unclaimed device (401) or a blocked address is refused. */
  private authAtUpgrade(route: SocketRoute, apiKey: string, remoteAddress: () => string): SocketAuth | null {
    if (route.auth === false) return { via: 'none' };
    if (apiKey) {
      this.deps.auth.check(apiKey, remoteAddress);
      return { via: 'header' };
    }
    this.deps.auth.assertNotBlocked(remoteAddress);
    return null;
  }

  private opened(ws: WebSocket<Conn>): void {
    const conn = ws.getUserData();
    conn.socket = new UwsSocket(ws, this.deps.settings.maxBufferedBytes);
    this.open.set(conn.socket, conn);
    if (conn.auth) this.start(conn, conn.auth);
    else conn.timer = setTimeout(() => conn.socket?.close(4408, 'Authentication timeout'), this.deps.settings.authTimeoutMs);
  }

  private received(conn: Conn, message: ArrayBuffer, isBinary: boolean): void {
    if (isBinary) {
      conn.socket?.close(1003, 'Text messages only');
      return;
    }
    const text = Buffer.from(message).toString('utf8');
    if (conn.auth) this.call(conn, (s) => s.message?.(text));
    else this.authenticate(conn, text);
  }

  /** The first message must be `{"type":"auth","apiKey":"..."}`; anything else counts as a missing key (4401). */
  private authenticate(conn: Conn, text: string): void {
    const message = authMessageOf(text);
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = null;
    try {
      this.deps.auth.check(typeof message?.apiKey === 'string' ? message.apiKey : undefined, () => conn.remoteAddress);
    } catch (err) {
      const { status, message: reason } = httpErrorOf(err);
      conn.socket?.close(4000 + status, reason);
      return;
    }
    this.start(conn, { via: 'message', message: message ?? {} });
  }

  private start(conn: Conn, auth: SocketAuth): void {
    conn.auth = auth;
    const socket = conn.socket;
    if (!socket) return;
    try {
      conn.session = conn.route.open(socket, { query: new URLSearchParams(conn.query), remoteAddress: conn.remoteAddress, auth });
    } catch (err) {
      this.crashed(conn, err);
    }
  }

  private call(conn: Conn, handler: (session: SocketSession) => void): void {
    if (!conn.session) return;
    try {
      handler(conn.session);
    } catch (err) {
      this.crashed(conn, err);
    }
  }

  private crashed(conn: Conn, err: unknown): void {
    this.deps.logger.error('websocket route failed', { path: conn.route.path, error: err instanceof Error ? err.stack : String(err) });
    conn.socket?.close(1011, 'Internal error');
  }

  private closed(conn: Conn, code: number, reason: string): void {
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = null;
    if (conn.socket) {
      conn.socket.markClosed();
      this.open.delete(conn.socket);
    }
    const session = conn.session;
    conn.session = null;
    try {
      session?.closed?.(code, reason);
    } catch (err) {
      this.deps.logger.error('websocket close handler failed', { path: conn.route.path, error: err instanceof Error ? err.stack : String(err) });
    }
  }
}

/** The route-facing socket over one uWS WebSocket; never touches it once closed. */
class UwsSocket implements Socket {
  private closedFlag = false;

  constructor(
    private readonly ws: WebSocket<Conn>,
    private readonly maxBuffered: number,
  ) {}

  get isOpen(): boolean {
    return !this.closedFlag;
  }

  send(text: string): boolean {
    if (this.closedFlag) return false;
    const status = this.ws.send(text, false, false);
    if (status === 2 || this.ws.getBufferedAmount() > this.maxBuffered) {
      this.close(1013, 'Client too slow: too much data queued');
      return false;
    }
    return true;
  }

  subscribe(topic: string): void {
    if (!this.closedFlag) this.ws.subscribe(topic);
  }

  unsubscribe(topic: string): void {
    if (!this.closedFlag) this.ws.unsubscribe(topic);
  }

  bufferedAmount(): number {
    return this.closedFlag ? 0 : this.ws.getBufferedAmount();
  }

  get bufferLimit(): number {
    return this.maxBuffered;
  }

  close(code = 1000, reason = ''): void {
    if (this.closedFlag) return;
    this.ws.end(code, Buffer.from(reason).subarray(0, 123));
  }

  /** Called from the uWS close handler (which `end` runs at once). */
  markClosed(): void {
    this.closedFlag = true;
  }
}

function authMessageOf(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && (parsed as Record<string, unknown>).type === 'auth') return parsed as Record<string, unknown>;
  } catch {
    // not JSON: no key
  }
  return null;
}
