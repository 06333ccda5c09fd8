// The `/api/v1/events` WebSocket (events.md): hello, resume with `since` (or reset), filters, then live events.
import type { WebSocketDoc } from '../openapi';
import type { Socket, SocketRequest, SocketRoute, SocketSession } from '../socket-route';
import { DeviceEventSchema } from '../../schemas/event-socket';
import { SubscribeMessageSchema } from '../../schemas/event-socket';
import { compileValidator } from '../../schemas/validate';
import { patternMatchingNothing, wants, type EventFilter } from '../../events/event-filter';
import { EventTopics } from '../event-topics';
import type { EventRing } from '../../events/event-ring';
import { takesPrinterStatus, type StatusDemand } from '../../events/status-demand';

const validateSubscribe = compileValidator(SubscribeMessageSchema);

/** How openapi.json describes this WebSocket (`x-websockets`). */
export const EVENTS_SOCKET_DOC: WebSocketDoc = {
  path: '/events',
  summary: 'Live events over a WebSocket (GET with Upgrade: websocket)',
  description:
    'Authenticate with the X-API-Key header on the upgrade, or with a first message {"type":"auth","apiKey":"...","since":N} within 5 s ' +
    '(4401 wrong key, 4408 none); a new API key closes the sockets the old one opened with 4401, reason "API key changed". ' +
    'A browser upgrade whose Origin the allowedOrigins setting does not allow (`*` allows all; the device\'s own pages always pass) is refused with 403. ' +
    'The device then sends {"type":"hello","bootId":"<uuid of this run>","lastId":N}. ' +
    '`types` and `printers` (comma-separated in the URL, or arrays in the auth message) set the first filter, the replay included. ' +
    '`since` (in the URL or the auth message) replays the retained events after N (at least the last 1,000), then live ones, with no gap and no duplicate; ' +
    'when N is no longer retained, or `bootId` (URL or auth message) names another run, {"type":"reset"} comes first. ' +
    'Filter at any time with {"type":"subscribe","types":["job.*"],"printers":["<path>"]} (answered {"type":"subscribed",...}, or {"type":"error","message":...}); ' +
    'events about no printer pass a printers filter. While a client takes printer.status, each printer is probed in the background every 5 s ' +
    '(PRINTPROXY_MONITOR_INTERVAL_MS), or as often as `statusIntervalMs` (URL or auth message) asks, never more often than every 2000 ms (the web console asks for 2000). ' +
    'The device pings; a client silent for 120 s is dropped; one with more than 1 MiB unread is closed with 1013.',
  message: DeviceEventSchema,
};

/** The route: every event of `ring` to each authenticated client that wants it, after the retained ones it missed. */
export function eventsSocket(ring: EventRing, bootId: string, demand?: StatusDemand): SocketRoute {
  const topics = new EventTopics(ring);
  return {
    path: '/events',
    summary: 'Live events (events.md): job.state, job.printed, printer.status, printer.added/updated/removed, device.settings, system.update',
    attach: (fanout) => topics.attach(fanout),
    open: (socket, request) => new EventsSession(ring, socket, request, bootId, topics, demand).session(),
  };
}

/** One client: hello, then the replay of what it missed (or a reset), then live events, each through its filter. */
class EventsSession {
  private readonly filter: EventFilter;
  /** Id after which the replay starts; null when there is none (or once it ran). */
  private cursor: number | null = null;
  private release: (() => void) | null = null;
  /** How often this client asks for printers' status to be probed, ms; null for the device's default. */
  private readonly statusIntervalMs: number | null;
  /** The topic this client's live events come through; null before it joined or once it left. */
  private topic: string | null = null;

  constructor(
    private readonly ring: EventRing,
    private readonly socket: Socket,
    request: SocketRequest,
    bootId: string,
    private readonly topics: EventTopics,
    private readonly demand?: StatusDemand,
  ) {
    this.filter = initialFilter(request);
    this.statusIntervalMs = statusInterval(request);
    // events still waiting to be published are in the ring (and the replay), not for this socket's topic
    topics.flush();
    socket.send(JSON.stringify({ type: 'hello', bootId, lastId: ring.lastId }));
    const resume = resumePoint(request, bootId);
    if (resume === 'reset' || (resume !== null && ring.after(resume) === null)) socket.send('{"type":"reset"}');
    else if (resume !== null) this.cursor = resume;
    if (!socket.isOpen) return;
    // the replay goes out first, then the topic: nothing is emitted in between (this all runs in one turn)
    this.pump();
    if (!socket.isOpen) return;
    this.topic = topics.join(socket, this.filter);
    this.claim();
  }

  session(): SocketSession {
    return {
      message: (text) => {
        this.topics.flush();
        if (applyMessage(text, this.filter, (reply) => this.socket.send(reply))) this.rejoin();
        this.claim();
      },
      closed: () => {
        if (this.topic) this.topics.leave(this.socket, this.topic);
        this.topic = null;
        this.topics.forget(this.socket);
        this.release?.();
      },
    };
  }

  /** A new filter: the client moves to that filter's topic. */
  private rejoin(): void {
    if (!this.topic || !this.socket.isOpen) return;
    this.topics.leave(this.socket, this.topic);
    this.topic = this.topics.join(this.socket, this.filter);
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
      // past half the bound, or when this event would take the queue past the bound itself, the replay ends in a reset
      const queued = this.socket.bufferedAmount();
      if (queued > this.socket.bufferLimit / 2 || queued + entry.json.length > this.socket.bufferLimit) {
        this.socket.send('{"type":"reset"}');
        return;
      }
      if (wants(this.filter, entry.event) && !this.socket.send(entry.json)) return;
    }
  }

  /** While this client may want printer.status, the monitor probes printers in the background. */
  private claim(): void {
    const wanted = takesPrinterStatus(this.filter.types);
    if (wanted && !this.release && this.demand) this.release = this.demand.acquire(this.statusIntervalMs);
    if (!wanted && this.release) {
      this.release();
      this.release = null;
    }
  }
}

/** The fields of the first-message auth (none when the key came in a header). */
function authMessage(request: SocketRequest): Record<string, unknown> {
  return request.auth.via === 'message' ? request.auth.message : {};
}

/** A connection parameter as the auth message gives it, or else as the URL does (null when neither has it). */
function parameter(request: SocketRequest, name: string): unknown {
  return authMessage(request)[name] ?? request.query.get(name);
}

/** `types` and `printers` from the auth message (arrays) or the URL (comma-separated), so that a replay is filtered too. */
function initialFilter(request: SocketRequest): EventFilter {
  const message = authMessage(request);
  const list = (name: 'types' | 'printers'): string[] | null => {
    const value = message[name];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    const query = request.query.get(name);
    return query ? query.split(',').filter((v) => v !== '') : null;
  };
  return { types: list('types'), printers: list('printers') };
}

/** `statusIntervalMs` of the auth message or the URL, when a positive number; null otherwise (the device's default). */
function statusInterval(request: SocketRequest): number | null {
  const raw = parameter(request, 'statusIntervalMs');
  const ms = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : Number.NaN;
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

/** The `since` of the URL or the auth message; 'reset' when the client names another run's bootId; null for none. */
function resumePoint(request: SocketRequest, bootId: string): number | 'reset' | null {
  const message = authMessage(request);
  const claimedBoot = typeof message.bootId === 'string' ? message.bootId : request.query.get('bootId');
  const raw = parameter(request, 'since');
  if (raw === undefined || raw === null || raw === '') return null;
  if (claimedBoot && claimedBoot !== bootId) return 'reset';
  const since = Number(raw);
  return Number.isSafeInteger(since) && since >= 0 ? since : 'reset';
}

/** A `subscribe` message replaces the filter; anything else is answered with an `error` message, the socket stays open. */
/** True when the message changed the filter. */
function applyMessage(text: string, filter: EventFilter, reply: (text: string) => void): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    reply(JSON.stringify({ type: 'error', message: 'messages must be JSON' }));
    return false;
  }
  if ((parsed as { type?: unknown } | null)?.type === 'auth') return false;
  try {
    const message = validateSubscribe(parsed);
    const typo = message.types ? patternMatchingNothing(message.types) : undefined;
    if (typo !== undefined) throw new Error(`types: ${typo} matches no event type`);
    filter.types = message.types ?? null;
    filter.printers = message.printers ?? null;
    reply(JSON.stringify({ type: 'subscribed', types: filter.types, printers: filter.printers }));
    return true;
  } catch (err) {
    reply(JSON.stringify({ type: 'error', message: (err as Error).message }));
    return false;
  }
}
