// The in-process event bus: job, printer and device changes, numbered in order; channels (WebSocket, webhooks) subscribe.
import type { Static } from '@sinclair/typebox';
import type { Logger } from '../log';
import type { DeviceEventSchema } from '../schemas/event-socket';
import type { EVENT_TYPE_NAMES } from '../schemas/webhook';

/** Event types (events.md), as EVENT_TYPE_NAMES lists them. */
export type EventType = (typeof EVENT_TYPE_NAMES)[number];

/** One event as every channel carries it (DeviceEventSchema): `id` increases by one per event since start, `time` ISO 8601. */
export type DeviceEvent = Static<typeof DeviceEventSchema>;

/** A subscriber; called synchronously in emission order. */
export type EventListener = (event: DeviceEvent) => void;

/** Numbers and fans out events; a throwing listener is logged and never stops the emitter or the other listeners. */
export class EventBus {
  private nextId = 1;
  private readonly listeners = new Set<EventListener>();

  constructor(private readonly logger: Logger, private readonly now: () => number = Date.now) {}

  /** Emits `data` (a snapshot: callers pass a copy of anything they keep changing) as the next event; returns it. */
  emit(type: EventType, data: unknown): DeviceEvent {
    const event: DeviceEvent = { id: this.nextId, type, time: new Date(this.now()).toISOString(), data };
    this.nextId += 1;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger.warn('event listener failed', { type, error: (err as Error).message });
      }
    }
    return event;
  }

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
