// The last events of this run, each serialized once, for WebSocket resume (`since`) and fan-out to clients.
import type { DeviceEvent, EventBus } from './event-bus';

/** One retained event and its JSON text, made once for every client. */
export interface RingEntry {
  readonly event: DeviceEvent;
  readonly json: string;
}

/** An entry whose JSON text is made when first read (with no client listening, never): events are snapshots (EventBus.emit). */
class LazyEntry implements RingEntry {
  private text: string | null = null;

  constructor(readonly event: DeviceEvent) {}

  get json(): string {
    this.text ??= JSON.stringify(this.event);
    return this.text;
  }
}

/** A listener of entries, called synchronously in emission order. */
export type RingListener = (entry: RingEntry) => void;

/** Events.md: at least the last 1,000 events are kept for resume. */
export const RING_CAPACITY = 1024;

/** Keeps the last `capacity` events of `bus`; subscribers get each entry right after it is kept. */
export class EventRing {
  private readonly entries: RingEntry[] = [];
  private readonly listeners = new Set<RingListener>();
  private last = 0;

  constructor(bus: EventBus, private readonly capacity = RING_CAPACITY) {
    bus.subscribe((event) => this.keep(event));
  }

  /** Id of the newest event of this run, 0 before the first. */
  get lastId(): number {
    return this.last;
  }

  /** The retained events after `id`, oldest first; null when some of them are no longer retained (or `id` is in the future). */
  after(id: number): RingEntry[] | null {
    if (id > this.last) return null;
    const first = this.entries[0]?.event.id ?? this.last + 1;
    if (id < first - 1) return null;
    return this.entries.slice(id - first + 1);
  }

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: RingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private keep(event: DeviceEvent): void {
    const entry = new LazyEntry(event);
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
    this.last = event.id;
    for (const listener of this.listeners) listener(entry);
  }
}
