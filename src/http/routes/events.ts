// The `/api/v1/events` WebSocket (events.md): hello, resume with `since` (or reset), filters, then live events.
import type { WebSocketDoc } from '../openapi';
import type { Socket, SocketRequest, SocketRoute, SocketSession } from '../socket-route';
import { DeviceEventSchema } from '../../schemas/event-socket';
import { SubscribeMessageSchema } from '../../schemas/event-socket';
import { compileValidator } from '../../schemas/validate';
import { patternMatchingNothing, wants, type EventFilter } from '../../events/event-filter';
import type { EventRing, RingEntry } from '../../events/event-ring';
import { takesPrinterStatus, type StatusDemand } from '../../events/status-demand';

const validateSubscribe = compileValidator(SubscribeMessageSchema);

/** How openapi.json describes this WebSocket (`x-websockets`). */
export const EVENTS_SOCKET_DOC: WebSocketDoc = {
  path: '/events',
  summary: 'Live events over a WebSocket (GET with Upgrade: websocket)',
  description:
    'Authenticate with the X-API-Key header on the upgrade, or with a first message {"type":"auth","apiKey":"...","since":N} within 5 s ' +
    '(4401 wrong key, 4408 none). The device then sends {"type":"hello","bootId":"<uuid of this run>","lastId":N}. ' +
    '`types` and `printers` (comma-separated in the URL, or arrays in the auth message) set the first filter, the replay included. ' +
    '`since` (in the URL or the auth message) replays the retained events after N (at least the last 1,000), then live ones, with no gap and no duplicate; ' +
    'when N is no longer retained, or `bootId` (URL or auth message) names another run, {"type":"reset"} comes first. ' +
    'Filter at any time with {"type":"subscribe","types":["job.*"],"printers":["<path>"]} (answered {"type":"subscribed",...}, or {"type":"error","message":...}); ' +
    'events about no printer pass a printers filter. The device pings; a client silent for 120 s is dropped; one with more than 1 MiB unread is closed with 1013.',
  message: DeviceEventSchema,
};

/** The route: every event of `ring` to each authenticated client that wants it, after the retained ones it missed. */
export function eventsSocket(ring: EventRing, bootId: string, demand?: StatusDemand): SocketRoute {
  return {
    path: '/events',
    summary: 'Live events (events.md): job.state, job.printed, printer.status, printer.added/updated/removed, device.settings',
    open: (socket, request) => openSession(ring, bootId, socket, request, demand),
  };
}


function openSession(ring: EventRing, bootId: string, socket: Socket, request: SocketRequest, demand?: StatusDemand): SocketSession {
  return new EventsSession(ring, socket, request, bootId, demand).session();
}

/** One client: hello, then the replay of what it missed (or a reset), then live events, each through its filter. */
class EventsSession {
  private readonly filter: EventFilter;
  /** Id after which the replay starts; null when there is none (or once it ran). */
  private cursor: number | null = null;
  private release: (() => void) | null = null;
  private unsubscribe: () => void = () => undefined;

  constructor(private readonly ring: EventRing, private readonly socket: Socket, request: SocketRequest, bootId: string, private readonly demand?: StatusDemand) {
    this.filter = initialFilter(request);
    socket.send(JSON.stringify({ type: 'hello', bootId, lastId: ring.lastId }));
    const resume = resumePoint(request, bootId);
    if (resume === 'reset' || (resume !== null && ring.after(resume) === null)) socket.send('{"type":"reset"}');
    else if (resume !== null) this.cursor = resume;
    if (!socket.isOpen) return;
    this.unsubscribe = ring.subscribe((entry) => this.live(entry));
    this.claim();
    this.pump();
  }

  session(): SocketSession {
    return {
      message: (text) => {
        applyMessage(text, this.filter, this.socket);
        this.claim();
      },
      closed: () => {
        this.unsubscribe();
        this.release?.();
      },
    };
  }

  private live(entry: RingEntry): void {
    if (wants(this.filter, entry.event)) this.socket.send(entry.json);
  }

  /**
   * Sends the retained events after the cursor, in this one synchronous turn (so none is lost or doubled). A replay
   * that would queue more than half the slow-reader bound for a client that has not read it yet stops with a reset instead: the
   * client re-reads state with GET rather than being closed as a slow reader.
   */
  private pump(): void {
    if (this.cursor === null) return;
    const entries = this.ring.after(this.cursor) ?? [];
    this.cursor = null;
    for (const entry of entries) {
      if (this.socket.bufferedAmount() > this.socket.bufferLimit / 2) {
        this.socket.send('{"type":"reset"}');
        return;
      }
      if (wants(this.filter, entry.event) && !this.socket.send(entry.json)) return;
    }
  }

  /** While this client may want printer.status, the monitor probes printers in the background. */
  private claim(): void {
    const wanted = takesPrinterStatus(this.filter.types);
    if (wanted && !this.release && this.demand) this.release = this.demand.acquire();
    if (!wanted && this.release) {
      this.release();
      this.release = null;
    }
  }
}

/** `types` and `printers` from the auth message (arrays) or the URL (comma-separated), so that a replay is filtered too. */
function initialFilter(request: SocketRequest): EventFilter {
  const message = request.auth.via === 'message' ? request.auth.message : {};
  const list = (name: 'types' | 'printers'): string[] | null => {
    const value = message[name];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    const query = request.query.get(name);
    return query ? query.split(',').filter((v) => v !== '') : null;
  };
  return { types: list('types'), printers: list('printers') };
}

/** The `since` of the URL or the auth message; 'reset' when the client names another run's bootId; null for none. */
function resumePoint(request: SocketRequest, bootId: string): number | 'reset' | null {
  const message = request.auth.via === 'message' ? request.auth.message : {};
  const claimedBoot = typeof message.bootId === 'string' ? message.bootId : request.query.get('bootId');
  const raw = message.since ?? request.query.get('since');
  if (raw === undefined || raw === null || raw === '') return null;
  if (claimedBoot && claimedBoot !== bootId) return 'reset';
  const since = Number(raw);
  return Number.isSafeInteger(since) && since >= 0 ? since : 'reset';
}

/** A `subscribe` message replaces the filter; anything else is answered with an `error` message, the socket stays open. */
function applyMessage(text: string, filter: EventFilter, socket: Socket): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    socket.send(JSON.stringify({ type: 'error', message: 'messages must be JSON' }));
    return;
  }
  if ((parsed as { type?: unknown } | null)?.type === 'auth') return;
  try {
    const message = validateSubscribe(parsed);
    const typo = message.types ? patternMatchingNothing(message.types) : undefined;
    if (typo !== undefined) throw new Error(`types: ${typo} matches no event type`);
    filter.types = message.types ?? null;
    filter.printers = message.printers ?? null;
    socket.send(JSON.stringify({ type: 'subscribed', types: filter.types, printers: filter.printers }));
  } catch (err) {
    socket.send(JSON.stringify({ type: 'error', message: (err as Error).message }));
  }
}
