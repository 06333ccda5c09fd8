// Fleet schemas (fleet.md): the settings of GET/PUT /fleet, `fleet` in GET /status, and a request carried over MQTT.
import { Type, type Static } from '@sinclair/typebox';

/** Shown instead of a stored `password` or `key`; sent back in a PUT, it keeps the stored value. */
export const MASKED = '********';

/** Defaults of the optional settings. */
export const FLEET_DEFAULTS = { topicPrefix: 'printproxy/v1', keepaliveSec: 30, sessionExpirySec: 3600, inlineMaxBytes: 131072 } as const;

const nullableString = (options: object = {}) => Type.Union([Type.String(options), Type.Null()]);

/** Body of PUT /fleet: the whole object; an absent optional field takes its default (deviceId: the device's id). */
export const FleetSettingsPutSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    brokerUrl: Type.Union([Type.String({ pattern: '^mqtts?://[^\\s/]+(:[0-9]{1,5})?/?$', maxLength: 512, description: 'an mqtts:// or mqtt:// URL (host and optional port)' }), Type.Null()]),
    deviceId: Type.Optional(Type.Union([Type.String({ pattern: '^[a-z0-9-]{1,64}$', description: '1 to 64 of a-z, 0-9 and -' }), Type.Null()])),
    topicPrefix: Type.Optional(Type.String({ pattern: '^[^/#+\\s]+(/[^/#+\\s]+){0,2}$', maxLength: 256, description: 'at most 3 topic levels, without wildcards' })),
    username: Type.Optional(nullableString({ maxLength: 256 })),
    password: Type.Optional(nullableString({ maxLength: 1024 })),
    ca: Type.Optional(nullableString({ maxLength: 65536 })),
    cert: Type.Optional(nullableString({ maxLength: 65536 })),
    key: Type.Optional(nullableString({ maxLength: 65536 })),
    keepaliveSec: Type.Optional(Type.Integer({ minimum: 5, maximum: 1200 })),
    sessionExpirySec: Type.Optional(Type.Integer({ minimum: 0, maximum: 604800 })),
    inlineMaxBytes: Type.Optional(Type.Integer({ minimum: 1024, maximum: 1048576 })),
  },
  { additionalProperties: false },
);
/** A PUT /fleet body. */
export type FleetSettingsPut = Static<typeof FleetSettingsPutSchema>;

/** Settings as stored and as GET /fleet returns them (secrets masked there); `deviceId` is always the effective one. */
export const FleetSettingsSchema = Type.Object({
  enabled: Type.Boolean(),
  brokerUrl: Type.Union([Type.String(), Type.Null()]),
  deviceId: Type.String(),
  topicPrefix: Type.String(),
  username: nullableString(),
  password: Type.Union([Type.String(), Type.Null()], { description: '`********` when set' }),
  ca: nullableString(),
  cert: nullableString(),
  key: Type.Union([Type.String(), Type.Null()], { description: '`********` when set' }),
  keepaliveSec: Type.Integer(),
  sessionExpirySec: Type.Integer(),
  inlineMaxBytes: Type.Integer(),
});
/** Fleet settings. */
export type FleetSettings = Static<typeof FleetSettingsSchema>;

/** The connection state of the fleet link. */
export const FleetStateSchema = Type.Union((['disabled', 'connecting', 'connected', 'error'] as const).map((s) => Type.Literal(s)));

/** `fleet` in GET /status. */
export const FleetStatusSchema = Type.Object({
  state: FleetStateSchema,
  brokerUrl: Type.Union([Type.String(), Type.Null()]),
  connectedSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  pendingEvents: Type.Integer({ description: 'Events waiting in the on-disk outbox for the broker' }),
});
/** The fleet part of GET /status. */
export type FleetStatus = Static<typeof FleetStatusSchema>;

/** A request over MQTT (fleet.md "Requests and answers"): the HTTP API, carried in JSON. */
export const FleetRequestSchema = Type.Object({
  id: Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Integer()]),
  method: Type.String({ pattern: '^(GET|POST|PUT|PATCH|DELETE|get|post|put|patch|delete)$', description: 'GET, POST, PUT, PATCH or DELETE' }),
  path: Type.String({ pattern: '^/', maxLength: 2048, description: 'a path below /api/v1 starting with /' }),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  body: Type.Optional(Type.Unknown()),
});
/** A fleet request. */
export type FleetRequest = Static<typeof FleetRequestSchema>;
