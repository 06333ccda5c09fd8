// Which browser origins may open a WebSocket: the allowedOrigins setting, as for CORS, and always the device's own pages.
import { AppError } from '../errors';
import { corsHeaders } from './cors';

/**
 * Throws ORIGIN_NOT_ALLOWED (403) for a browser upgrade whose `origin` is neither allowed by `allowedOrigins` (`*` allows
 * every origin, as CORS does) nor the device itself (its host is the `host` the request was sent to: the web console).
 * No `Origin` header (servers, CLIs) is always allowed.
 */
export function checkSocketOrigin(origin: string, host: string, allowedOrigins: readonly string[]): void {
  if (!origin || corsHeaders(origin, allowedOrigins)['Access-Control-Allow-Origin'] || sameHost(origin, host)) return;
  throw new AppError('ORIGIN_NOT_ALLOWED', `Origin ${origin.slice(0, 200)} is not in allowedOrigins`);
}

function sameHost(origin: string, host: string): boolean {
  try {
    return host !== '' && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
