// A cap on the connections one uWS listener holds at once, kept with uWS's own `filter` (no socket of ours in between).
import type { TemplatedApp } from './uws';

/**
 * Counts the connections `app` holds and closes each one that opens past `limit` as soon as it opens (uWS reports its
 * close too, so the count stays exact). uWS names no address when a connection closes, so the count is per listener;
 * per-address limits are kept per request (the IPP gate, the key limiter).
 */
export function capConnections(app: TemplatedApp, limit: number): void {
  let open = 0;
  app.filter((res, change) => {
    open += Number(change);
    if (Number(change) > 0 && open > limit) res.close();
  });
}
