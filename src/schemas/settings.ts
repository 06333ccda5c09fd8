// Settings, shares and extension settings schemas (seed 2.7–2.9 and decisions.md writes).
import { Type, type Static } from '@sinclair/typebox';
import { ConnectionSchema, ContentKindSchema, DpiSchema, PaperWidthSchema, ShareSettingsSchema, TagSchema } from './printer';

/** A network share (seed 2.8). */
export const ShareSchema = Type.Object(
  {
    sharePath: Type.String({ minLength: 1, maxLength: 1024 }),
    alias: Type.String({ maxLength: 256 }),
    username: Type.String({ maxLength: 256 }),
    password: Type.String({ maxLength: 1024 }),
    server: Type.String({ maxLength: 253 }),
    browsable: Type.Boolean(),
    uuid: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
/** A share. */
export type Share = Static<typeof ShareSchema>;

/** Body of `POST /shares` and `PUT /shares/{uuid}`: the seed fields, `uuid` optional. */
export const ShareBodySchema = Type.Object(
  {
    sharePath: Type.String({ minLength: 1, maxLength: 1024 }),
    alias: Type.Optional(Type.String({ maxLength: 256 })),
    username: Type.Optional(Type.String({ maxLength: 256 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    server: Type.Optional(Type.String({ maxLength: 253 })),
    browsable: Type.Optional(Type.Boolean()),
    uuid: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' })),
  },
  { additionalProperties: false },
);
/** A share create/replace request. */
export type ShareBody = Static<typeof ShareBodySchema>;

/** One instance of an extension (seed 2.9). */
export const ExtensionInstanceSchema = Type.Object(
  {
    oidcPath: Type.String({ maxLength: 1024 }),
    clientId: Type.String({ maxLength: 512 }),
    clientSecret: Type.String({ maxLength: 4096 }),
    target: Type.String({ maxLength: 2048 }),
    logicalPrinterId: Type.String({ maxLength: 256 }),
    tag: Type.String({ maxLength: 64 }),
    startOnBoot: Type.Boolean(),
    id: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** Extension settings (seed 2.9). */
export const ExtensionSettingsSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64 }),
    enabled: Type.Boolean(),
    instances: Type.Array(ExtensionInstanceSchema, { maxItems: 64 }),
  },
  { additionalProperties: false },
);
/** Extension settings. */
export type ExtensionSettings = Static<typeof ExtensionSettingsSchema>;

/** Body of `PUT /extensions/settings`: the whole array. */
export const ExtensionSettingsListSchema = Type.Array(ExtensionSettingsSchema, { maxItems: 32 });

/** Most PDF render workers the device may run. */
export const MAX_RENDER_WORKERS = 16;

/** PDF render worker threads: 1..16. */
export const RenderWorkersSchema = Type.Integer({ minimum: 1, maximum: MAX_RENDER_WORKERS });

/** Body of `PUT /settings`. */
export const SettingsPutBodySchema = Type.Object(
  {
    alias: Type.Optional(Type.String({ maxLength: 256 })),
    subDomain: Type.Optional(Type.String({ maxLength: 63, pattern: '^[a-z0-9-]*$' })),
    allowedOrigins: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { minItems: 1, maxItems: 64 })),
    maxBodyBytes: Type.Optional(Type.Integer({ minimum: 1024, maximum: 1024 * 1024 * 1024 })),
    renderWorkers: Type.Optional(
      Type.Union([RenderWorkersSchema, Type.Null()], {
        description: 'PDF render worker threads; null goes back to the default (the CPU count, at most 16). Renders already accepted finish on the old pool.',
      }),
    ),
  },
  { additionalProperties: false },
);
/** A settings update. */
export type SettingsPutBody = Static<typeof SettingsPutBodySchema>;

/** A manually added printer as persisted. */
export const ManualPrinterSchema = Type.Object({
  path: Type.String(),
  connection: ConnectionSchema,
  model: Type.Optional(Type.String()),
  content: ContentKindSchema,
  tags: Type.Array(Type.String()),
  dpi: Type.Optional(DpiSchema),
  dither: Type.Optional(Type.Boolean()),
  paperWidth: Type.Optional(PaperWidthSchema),
  share: Type.Optional(ShareSettingsSchema),
});
/** A persisted manual printer. */
export type ManualPrinter = Static<typeof ManualPrinterSchema>;

/** Tags/model/content/dpi/dither/paperWidth kept by path for discovered printers. */
export const PrinterOverrideSchema = Type.Object({
  tags: Type.Optional(Type.Array(TagSchema)),
  model: Type.Optional(Type.String()),
  content: Type.Optional(ContentKindSchema),
  dpi: Type.Optional(DpiSchema),
  dither: Type.Optional(Type.Boolean()),
  paperWidth: Type.Optional(PaperWidthSchema),
  share: Type.Optional(ShareSettingsSchema),
});
/** A persisted override. */
export type PrinterOverride = Static<typeof PrinterOverrideSchema>;

/**
 * An API key a client sets (POST /setup, the setup file): at least 16 characters, as settings.json requires, and only
 * visible ASCII, since it travels in the X-API-Key header (a space or an accent would make it impossible to send).
 */
export const ApiKeySchema = Type.String({ minLength: 16, maxLength: 256, pattern: '^[!-~]{16,256}$', description: '16 to 256 visible ASCII characters (no spaces)' });

/** The device's 4-character id (decisions.md): its mDNS name `printproxy-<id>.local`, `deviceId` of GET /status, the fleet's default deviceId. */
export const DeviceIdSchema = Type.String({ pattern: '^[a-z0-9]{4}$', description: '4 characters of a-z and 0-9' });

/** A host name of the device itself: one DNS label (RFC 1123), without the domain. */
export const HostnameSchema = Type.String({ pattern: '^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$', description: 'one DNS label: 1 to 63 of A-Z, a-z, 0-9 and -, not starting or ending with -' });

/** Body of PUT /settings/updates: who may start an update. */
export const UpdateSettingsSchema = Type.Object(
  { fromFleet: Type.Boolean({ description: 'true: the fleet (MQTT) may POST /system/update with a URL; written over HTTP only' }) },
  { additionalProperties: false },
);
/** The update settings. */
export type UpdateSettings = Static<typeof UpdateSettingsSchema>;

/** The persisted settings file, version 1. */
export const StoredSettingsSchema = Type.Object({
  version: Type.Literal(1),
  deviceId: DeviceIdSchema,
  /** Null while the device is unclaimed (no key set yet: device-image.md "Claim on first visit"). */
  apiKey: Type.Union([Type.String({ minLength: 16 }), Type.Null()]),
  /** Set by the setup file; absent: GET /status reports the system's own host name. */
  hostname: Type.Optional(HostnameSchema),
  alias: Type.String(),
  subDomain: Type.String(),
  allowedOrigins: Type.Array(Type.String()),
  maxBodyBytes: Type.Integer({ minimum: 1024 }),
  /** Absent: the CPU count (see renderWorkersOf). */
  renderWorkers: Type.Optional(RenderWorkersSchema),
  printers: Type.Array(ManualPrinterSchema),
  printerOverrides: Type.Record(Type.String(), PrinterOverrideSchema),
  shares: Type.Array(ShareSchema),
  extensions: Type.Array(ExtensionSettingsSchema),
  /** Absent: updates only over HTTP (fromFleet false). */
  updates: Type.Optional(UpdateSettingsSchema),
});
/** The persisted settings. */
export type StoredSettings = Static<typeof StoredSettingsSchema>;
