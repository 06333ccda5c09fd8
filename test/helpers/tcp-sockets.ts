// Reads this machine's TCP connections from the kernel's tables (what `ss` reads), for leak and progress checks.
import { readFileSync } from 'node:fs';

/** TCP states that still hold a connection (all but TIME_WAIT 06, CLOSE 07 and LISTEN 0A), as /proc/net/tcp writes them. */
const HELD = new Set(['01', '02', '03', '04', '05', '08', '09', '0B']);

const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/** The fields of every row of /proc/net/tcp and /proc/net/tcp6 (local, remote, state, tx:rx queues at 1 to 4). */
function rows(): string[][] {
  const out: string[][] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 4) out.push(fields);
    }
  }
  return out;
}

/** Connections whose remote port is `port`, in a state that still holds them open (established, closing...). */
export function connectionsTo(port: number): number {
  return rows().filter((f) => f[2].endsWith(`:${hex(port)}`) && HELD.has(f[3])).length;
}

/** Bytes the kernel holds unread for the server side (local port `serverPort`) of the connection from `clientPort`; null when there is none. */
export function unreadByServer(serverPort: number, clientPort: number): number | null {
  const row = rows().find((f) => f[1].endsWith(`:${hex(serverPort)}`) && f[2].endsWith(`:${hex(clientPort)}`));
  return row ? Number.parseInt(row[4].split(':')[1], 16) : null;
}
