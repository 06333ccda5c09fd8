// The uWS HTTP(S) server: one uWS app per listener, each with its doors mounted (sockets, IPP, API, console), in that order.
import type { Logger } from '../log';
import type { MemoryBudget } from '../util/memory-budget';
import { ApiDoor } from './api-door';
import type { ApiAuth } from './auth';
import { capConnections } from './connection-cap';
import { ConsoleDoor } from './console-door';
import { IPP_PREFIX, Exchanges, type HttpPolicy } from './exchanges';
import { IppDoor, type IppDoorDeps } from './ipp-door';
import { preflightHeaders } from './cors';
import type { Route } from './route';
import { socketDoor } from './socket-door';
import type { SocketHub } from './socket-hub';
import type { SocketRoute, SocketSettings } from './socket-route';
import type { StaticMount } from './static-site';
import type { HttpRequest, HttpResponse, TemplatedApp, Uws, us_listen_socket } from './uws';

export type { HttpPolicy } from './exchanges';
export type { IppBusy, IppEndpoint } from './ipp-door';

/** Collaborators of the server. */
export interface HttpServerDeps {
  uws: Uws;
  routes: Route[];
  auth: ApiAuth;
  policy: HttpPolicy;
  /** The device's one allowance of client bytes in memory, shared with the IPP documents and raw ports. */
  budget: MemoryBudget;
  logger: Logger;
  /** Called with its size when an exchange that held a large body (one counted in the body budget) has ended. */
  afterLargeBody?: (bytes: number) => void;
  /** Folders served without a key below URL prefixes (a web console); API paths never reach them. */
  statics?: readonly StaticMount[];
  /** WebSocket routes below `/api/v1`, authenticated like the JSON routes. */
  sockets?: readonly SocketRoute[];
  /** Overrides of DEFAULT_SOCKET_SETTINGS. */
  socketSettings?: Partial<SocketSettings>;
  /** IPP of shared printers (printer-sharing.md); absent: 404 there, and no IPP port. */
  ipp?: IppDoorDeps;
}

/** TLS files for the HTTPS listener. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** Serves the API on any number of HTTP/HTTPS listeners; `close` stops accepting and waits for in-flight answers. */
export class HttpServer {
  private readonly listeners: us_listen_socket[] = [];
  private readonly apps: TemplatedApp[] = [];
  private readonly exchanges: Exchanges;
  private readonly api: ApiDoor;
  private readonly console: ConsoleDoor;
  private readonly hub: SocketHub;
  private readonly ipp: IppDoor | null;

  constructor(private readonly deps: HttpServerDeps) {
    this.exchanges = new Exchanges(deps);
    this.api = new ApiDoor(deps.routes, deps.auth, this.exchanges);
    this.console = new ConsoleDoor(deps.statics ?? [], this.exchanges, (res, req) => this.notFound(res, req));
    this.hub = socketDoor({ routes: deps.sockets ?? [], auth: deps.auth, policy: deps.policy, logger: deps.logger, settings: deps.socketSettings }, this.exchanges);
    this.ipp = deps.ipp ? new IppDoor(deps.ipp, this.exchanges) : null;
  }

  /** Closes every WebSocket an API key opened with `code` (4401 once the key changed: events.md's wrong-key code). */
  closeKeyedSockets(code: number, reason: string): void {
    this.hub.closeAuthenticated(code, reason);
  }

  /** Starts a plain HTTP listener; resolves with the bound port (pass 0 for a free one). */
  listen(host: string, port: number): Promise<number> {
    return this.bind(this.mount(this.deps.uws.App(), false), host, port);
  }

  /** Starts an HTTPS listener with the given certificate; resolves with the bound port. */
  listenTls(host: string, port: number, tls: TlsFiles): Promise<number> {
    const app = this.deps.uws.SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile });
    return this.bind(this.mount(app, true), host, port);
  }

  /** Starts the IPP port's listener: `/ipp/print/<id>` only, everything else 404; resolves with the bound port. */
  listenIpp(host: string, port: number): Promise<number> {
    const app = this.deps.uws.App();
    this.ipp?.mount(app, false);
    app.any('/*', (res, req) => this.notFound(res, req));
    if (this.deps.ipp?.maxConnections !== undefined) capConnections(app, this.deps.ipp.maxConnections);
    return this.bind(app, host, port);
  }

  /**
   * Stops accepting connections, closes WebSockets (1001), waits until in-flight requests are answered (or `graceMs`
   * passed), then closes every connection still open (idle keep-alive ones, and those whose answer did not come).
   */
  async close(graceMs = 5000): Promise<void> {
    for (const socket of this.listeners.splice(0)) this.deps.uws.us_listen_socket_close(socket);
    this.hub.closeAll();
    try {
      await this.exchanges.drain(graceMs);
    } finally {
      for (const app of this.apps.splice(0)) app.close();
    }
  }

  private bind(app: TemplatedApp, host: string, port: number): Promise<number> {
    this.apps.push(app);
    return new Promise((resolve, reject) => {
      app.listen(host, port, (socket) => {
        if (!socket) {
          reject(new Error(`cannot listen on ${host}:${port}`));
          return;
        }
        this.listeners.push(socket);
        resolve(this.deps.uws.us_socket_local_port(socket));
      });
    });
  }

  /** Every door on one API listener; the catch-alls last (uWS tries routes of equal rank in the order they were added). */
  private mount(app: TemplatedApp, secure: boolean): TemplatedApp {
    this.hub.mount(app);
    this.ipp?.mount(app, secure);
    this.api.mount(app);
    this.console.mount(app);
    app.options('/*', (res, req) => this.preflight(res, req));
    app.any('/*', (res, req) => this.notFound(res, req));
    return app;
  }

  private preflight(res: HttpResponse, req: HttpRequest): void {
    // the IPP door is for printing clients on the LAN, which send no preflight: a page asking for one gets the 404
    if (req.getUrl().startsWith(IPP_PREFIX)) return this.notFound(res, req);
    const origin = req.getHeader('origin');
    const headers = preflightHeaders(origin, this.deps.policy.allowedOrigins(), req.getHeader('access-control-request-private-network') === 'true');
    res.writeStatus('204 No Content');
    for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
    res.endWithoutBody();
  }

  private notFound(res: HttpResponse, req: HttpRequest): void {
    this.exchanges.serve(res, req, (exchange) => this.exchanges.notFound(exchange, () => this.api.checkKey(exchange)));
  }
}
