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
  const filter: EventFilter = { types: null, printers: null };
  // while this client may want printer.status, the monitor probes printers in the background
  let release: (() => void) | null = null;
  const claim = () => {
    const wants = takesPrinterStatus(filter.types);
    if (wants && !release && demand) release = demand.acquire();
    if (!wants && release) {
      release();
      release = null;
    }
  };
  const forward = (entry: RingEntry) => {
    if (wants(filter, entry.event)) socket.send(entry.json);
  };
  socket.send(JSON.stringify({ type: 'hello', bootId, lastId: ring.lastId }));
  const resume = resumePoint(request, bootId);
  if (resume !== null) {
    const missed = resume === 'reset' ? null : ring.after(resume);
    if (missed === null) socket.send('{"type":"reset"}');
    else for (const entry of missed) forward(entry);
  }
  // replay and subscription run in one synchronous turn: no event can fall between them, none comes twice
  const unsubscribe = socket.isOpen ? ring.subscribe(forward) : () => undefined;
  if (socket.isOpen) claim();
  return {
    message: (text) => {
      applyMessage(text, filter, socket);
      claim();
    },
    closed: () => {
      unsubscribe();
      release?.();
    },
  };
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
