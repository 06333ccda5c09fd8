// Counts this machine's TCP connections to a port from the kernel's tables (what `ss` reads), for leak checks.
import { readFileSync } from 'node:fs';

/** TCP states that still hold a connection (all but TIME_WAIT 06, CLOSE 07 and LISTEN 0A), as /proc/net/tcp writes them. */
const HELD = new Set(['01', '02', '03', '04', '05', '08', '09', '0B']);

/** Connections whose remote port is `port`, in a state that still holds them open (established, closing...). */
export function connectionsTo(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 3 && fields[2].endsWith(`:${hex}`) && HELD.has(fields[3])) count += 1;
    }
  }
  return count;
}

/** Bytes the kernel holds unread for the server side (local port `serverPort`) of the connection from `clientPort`; null when there is none. */
export function unreadByServer(serverPort: number, clientPort: number): number | null {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex(serverPort)}`) && f[2]?.endsWith(`:${hex(clientPort)}`)) return Number.parseInt(f[4].split(':')[1], 16);
    }
  }
  return null;
}
