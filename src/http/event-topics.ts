// WebSocket fan-out of live events: clients with the same filter share one uWS topic, so each event is handed to the
// native side once per distinct filter instead of once per client; readers that fall behind are closed after each burst.
import { wants, type EventFilter } from '../events/event-filter';
import type { EventRing, RingEntry } from '../events/event-ring';
import type { Fanout, Socket } from './socket-route';

/** How soon after an event the clients' queues are checked, ms. */
const SLOW_CHECK_MS = 50;
/** Longest an event waits to be sent with the ones after it, ms. */
const BATCH_MS = 2;

interface Group {
  filter: EventFilter;
  members: number;
}

/** The topic of a filter: equal filters (lists compared as sets) share it. */
export function topicOf(filter: EventFilter): string {
  const sorted = (list: string[] | null) => (list ? [...new Set(list)].sort() : null);
  return `events:${JSON.stringify([sorted(filter.types), sorted(filter.printers)])}`;
}

/** Publishes every ring entry to the topics whose filter wants it; sockets join and leave topics as their filter changes. */
export class EventTopics {
  private readonly groups = new Map<string, Group>();
  private readonly sockets = new Set<Socket>();
  private fanout: Fanout | null = null;
  private checkScheduled = false;
  /** Bytes published since the clients' queues were last checked. */
  private publishedSinceCheck = 0;
  /** Events waiting for the next flush, oldest first. */
  private readonly pending: RingEntry[] = [];
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(ring: EventRing, private readonly batchMs = BATCH_MS) {
    ring.subscribe((entry) => this.queue(entry));
  }

  /**
   * Publishes every waiting event now. A session calls it before anything it sends directly (a replay, a reply), so
   * that nothing it sends overtakes, doubles or misses a live event.
   */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    for (const entry of this.pending.splice(0)) this.publish(entry);
  }

  /** Live events go out in batches, each client's in one write: a few ms of delay for far fewer system calls. */
  private queue(entry: RingEntry): void {
    if (!this.fanout || this.groups.size === 0) return;
    this.pending.push(entry);
    if (this.pending.length === 1) this.flushTimer = setTimeout(() => this.flush(), this.batchMs);
  }

  /** Gives the topics the server's publish (once the WebSocket routes are mounted). */
  attach(fanout: Fanout): void {
    this.fanout = fanout;
  }

  /** Subscribes `socket` to live events through `filter`; returns the topic to leave later. */
  join(socket: Socket, filter: EventFilter): string {
    const topic = topicOf(filter);
    const group = this.groups.get(topic);
    if (group) group.members += 1;
    else this.groups.set(topic, { filter: { types: filter.types && [...filter.types], printers: filter.printers && [...filter.printers] }, members: 1 });
    this.sockets.add(socket);
    socket.subscribe(topic);
    return topic;
  }

  /** Takes `socket` off `topic` (a closed socket has left its topics already). */
  leave(socket: Socket, topic: string): void {
    if (socket.isOpen) socket.unsubscribe(topic);
    const group = this.groups.get(topic);
    if (group && --group.members === 0) this.groups.delete(topic);
  }

  /** Forgets a closed socket. */
  forget(socket: Socket): void {
    this.sockets.delete(socket);
  }

  private publish(entry: RingEntry): void {
    if (!this.fanout || this.groups.size === 0) return;
    let published = false;
    for (const [topic, group] of this.groups) {
      if (!wants(group.filter, entry.event)) continue;
      this.fanout.publish(topic, entry.json);
      published = true;
    }
    if (!published) return;
    this.publishedSinceCheck += entry.json.length;
    // no queue can have grown past 1.5x its bound since the last check: uWS's own cut-off (2x) never drops an event
    if (this.publishedSinceCheck > this.boundOfAny() / 2) this.checkNow();
    else this.scheduleCheck();
  }

  private boundOfAny(): number {
    for (const socket of this.sockets) return socket.bufferLimit;
    return Number.POSITIVE_INFINITY;
  }

  private checkNow(): void {
    this.publishedSinceCheck = 0;
    for (const socket of this.sockets) if (socket.bufferedAmount() > socket.bufferLimit) socket.close(1013, 'Client too slow: too much data queued');
  }

  /**
   * Within SLOW_CHECK_MS of a published event (sooner when half a bound of bytes went out), a client with more than its
   * bound unread is closed (1013) rather than left with a gap; small events cost one pass over the clients per period.
   */
  private scheduleCheck(): void {
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    setTimeout(() => {
      this.checkScheduled = false;
      this.checkNow();
    }, SLOW_CHECK_MS).unref();
  }
}
