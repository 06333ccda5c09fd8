// The sockets door: the WebSocket routes below /api/v1, whose upgrade runs as a request (a refusal is the JSON envelope).
import type { Logger } from '../log';
import type { ApiAuth } from './auth';
import { API_PREFIX, remoteAddress } from './exchange';
import type { Exchanges, HttpPolicy } from './exchanges';
import { SocketHub } from './socket-hub';
import { DEFAULT_SOCKET_SETTINGS, type SocketRoute, type SocketSettings } from './socket-route';

/** What the sockets door serves and with what: its routes, the key check, overrides of DEFAULT_SOCKET_SETTINGS. */
export interface SocketDoorDeps {
  routes: readonly SocketRoute[];
  auth: ApiAuth;
  policy: HttpPolicy;
  logger: Logger;
  settings?: Partial<SocketSettings>;
}

/** The hub of the WebSocket routes, each upgrade counted as an exchange (onAborted first, 401/429 as the envelope). */
export function socketDoor(deps: SocketDoorDeps, exchanges: Exchanges): SocketHub {
  return new SocketHub({
    routes: deps.routes,
    auth: deps.auth,
    settings: { ...DEFAULT_SOCKET_SETTINGS, ...deps.settings },
    logger: deps.logger,
    prefix: API_PREFIX,
    allowedOrigins: deps.policy.allowedOrigins,
    gate: (res, req, upgrade) =>
      exchanges.serve(res, req, (exchange) => {
        try {
          upgrade(exchange.headers['x-api-key'], () => remoteAddress(exchange));
        } catch (err) {
          exchanges.fail(exchange, err);
          return;
        }
        exchanges.end(exchange);
      }),
  });
}
