// Reachability of a TCP printer: can a connection be opened within the budget.
import net from 'node:net';

/** Resolves true when `host:port` accepts a connection within `timeoutMs`, false otherwise; never rejects. */
export function probeTcp(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
