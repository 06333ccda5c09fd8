// Webhooks (events.md "Webhooks"): the create body, the stored record, the view GET answers, the delivered event.
import { Type, type Static } from '@sinclair/typebox';

/** Most webhooks a device keeps. */
export const MAX_WEBHOOKS = 10;

/** What GET answers in place of a stored secret. */
export const SECRET_MASK = '********';

/** An event type name, or a prefix glob ending in `*` (`job.*`, `*`). */
export const EventTypePatternSchema = Type.String({ pattern: '^(\\*|[a-z]+(\\.[a-z]+)*(\\.\\*)?)$', maxLength: 64, description: 'An event type (`job.state`) or a prefix ending in `*` (`job.*`, `*`).' });

/** Body of `POST /webhooks`. */
export const WebhookBodySchema = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 2048, pattern: '^[hH][tT][tT][pP][sS]?://', description: 'http or https URL the events are POSTed to.' }),
    types: Type.Optional(Type.Array(EventTypePatternSchema, { minItems: 1, maxItems: 32, description: 'Event types to send (globs with a `*` suffix); every type when absent.' })),
    printers: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
        minItems: 1,
        maxItems: 64,
        description: 'Printer paths: events about other printers are not sent; events about no printer (`device.settings`, `system.update`) always are. Every printer when absent.',
      }),
    ),
    secret: Type.Optional(Type.String({ minLength: 16, maxLength: 256, description: 'HMAC key of the signature; generated when absent.' })),
  },
  { additionalProperties: false },
);
/** A webhook create request. */
export type WebhookBody = Static<typeof WebhookBodySchema>;

/** A webhook as webhooks.json keeps it. */
export const StoredWebhookSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }),
    url: Type.String(),
    types: Type.Union([Type.Array(Type.String()), Type.Null()]),
    printers: Type.Union([Type.Array(Type.String()), Type.Null()]),
    secret: Type.String(),
    createdAt: Type.String(),
  },
  { additionalProperties: false },
);
/** A stored webhook. */
export type StoredWebhook = Static<typeof StoredWebhookSchema>;

/** webhooks.json. */
export const StoredWebhooksSchema = Type.Object({ version: Type.Literal(1), webhooks: Type.Array(StoredWebhookSchema) }, { additionalProperties: false });
/** The content of webhooks.json. */
export type StoredWebhooks = Static<typeof StoredWebhooksSchema>;

/** The last delivery attempt of a webhook (since the daemon started). */
export const LastDeliverySchema = Type.Object({
  time: Type.String({ format: 'date-time', description: 'When the attempt ended.' }),
  deliveryId: Type.String(),
  eventType: Type.String(),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the answer; null when there was none.' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed (no answer within the limit, connection refused, a non-2xx status); null when delivered.' }),
});
/** One delivery attempt's outcome. */
export type LastDelivery = Static<typeof LastDeliverySchema>;

/** A webhook as the API shows it: the secret masked (in clear only in the POST answer), with its delivery counts. */
export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  types: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: every type.' }),
  printers: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: every printer.' }),
  secret: Type.String({ description: '`********` except in the answer of the POST that created the webhook.' }),
  createdAt: Type.String({ format: 'date-time' }),
  pending: Type.Integer({ minimum: 0, description: 'Deliveries waiting in the outbox (including one being attempted).' }),
  dropped: Type.Integer({ minimum: 0, description: 'Deliveries given up: not delivered within the retry horizon, or refused because the outbox was full.' }),
  lastDelivery: Type.Union([LastDeliverySchema, Type.Null()], { description: 'null until an attempt ended since the daemon started.' }),
});
/** A webhook view. */
export type WebhookView = Static<typeof WebhookSchema>;

/** The event types of the bus (events.md table); the bus's EventType is this list's type. */
export const EVENT_TYPE_NAMES = ['job.state', 'job.printed', 'printer.status', 'printer.added', 'printer.updated', 'printer.removed', 'device.settings', 'system.update'] as const;

/** The JSON body of every delivery: one event (events.md "Event object"); `ping` only from `POST /webhooks/{id}/test`. */
export const WebhookEventSchema = Type.Object({
  id: Type.Integer({ minimum: 0, description: 'Event number since the daemon started (0 for a ping).' }),
  type: Type.Union([...EVENT_TYPE_NAMES, 'ping'].map((t) => Type.Literal(t))),
  time: Type.String({ format: 'date-time' }),
  data: Type.Unknown({ description: 'Depends on the type (events.md); a ping carries `{ webhookId }`.' }),
});

/** Headers of every delivery, for the docs. */
export const DELIVERY_HEADERS: Array<{ name: string; description: string }> = [
  { name: 'X-Printproxy-Event', description: 'The event type.' },
  { name: 'X-Printproxy-Delivery', description: '`<bootId>.<event id>` (a ping: `<bootId>.ping-<n>`); the same on every retry, and after a restart, of one delivery.' },
  { name: 'X-Printproxy-Signature', description: '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.' },
];

/** Answer of `POST /webhooks/{id}/test`: the ping sent and what the receiver answered. */
export const PingResultSchema = Type.Object({
  deliveryId: Type.String(),
  delivered: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});
/** A ping outcome. */
export type PingResult = Static<typeof PingResultSchema>;
