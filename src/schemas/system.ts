// The device itself (device-image.md): claiming it (POST/GET /setup), the setup file, its slots (GET /system) and updates.
import { Type, type Static } from '@sinclair/typebox';
import { FleetSettingsPutSchema } from './fleet';
import { ApiKeySchema, DeviceIdSchema, HostnameSchema } from './settings';

/** Body of POST /setup: the device's first API key. */
export const SetupBodySchema = Type.Object({ apiKey: ApiKeySchema }, { additionalProperties: false });
/** A POST /setup body. */
export type SetupBody = Static<typeof SetupBodySchema>;

/** `content` of GET /setup and of POST /setup's 201. */
export const SetupStateSchema = Type.Object({
  claimed: Type.Boolean({ description: 'true once the device has an API key; false: the console shows its one-time "Set the API key" page' }),
});
/** Whether the device is claimed. */
export type SetupState = Static<typeof SetupStateSchema>;

/**
 * `printproxyd-setup.json` (device-image.md "Setup file"): every field optional, each validated as the API validates it.
 * `deviceId` is the device's own 4-character id (the one GET /status reports, its mDNS name `printproxy-<id>.local`,
 * and the fleet's deviceId unless `fleet.deviceId` names another); `hostname` is the system's host name, reported by
 * GET /status and written to DATA/hostname for the boot scripts.
 */
export const SetupFileSchema = Type.Object(
  {
    apiKey: Type.Optional(ApiKeySchema),
    deviceId: Type.Optional(DeviceIdSchema),
    hostname: Type.Optional(HostnameSchema),
    fleet: Type.Optional(FleetSettingsPutSchema),
  },
  { additionalProperties: false },
);
/** A parsed, valid setup file. */
export type SetupFile = Static<typeof SetupFileSchema>;

/** A RAUC slot state: `booted` (running now), `active` (part of the booted slot's group), `inactive` (the other). */
export const SlotStateSchema = Type.Union((['booted', 'active', 'inactive'] as const).map((s) => Type.Literal(s)));
/** A slot state. */
export type SlotState = Static<typeof SlotStateSchema>;

/** One root-filesystem slot of GET /system, as RAUC reports it. */
export const SystemSlotSchema = Type.Object({
  name: Type.String({ description: 'RAUC slot name, e.g. rootfs.0' }),
  bootname: Type.Union([Type.String(), Type.Null()], { description: 'the boot loader\'s name of the slot (A or B)' }),
  state: SlotStateSchema,
  version: Type.Union([Type.String(), Type.Null()], { description: 'version of the bundle installed in the slot; null when RAUC has none recorded' }),
  installedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when RAUC installed it; null when RAUC has none recorded' }),
  good: Type.Union([Type.Boolean(), Type.Null()], { description: "the boot loader's state of the slot (RAUC's boot_status), never the daemon's belief; null when RAUC reports none" }),
});
/** A slot. */
export type SystemSlot = Static<typeof SystemSlotSchema>;

/** The phases of an update (device-image.md "Updates"); the last three are final. */
export const UPDATE_PHASES = ['downloading', 'verifying', 'installing', 'awaiting-reboot', 'rebooting', 'succeeded', 'rolled-back', 'failed'] as const;
/** A phase of an update. */
export type UpdatePhase = (typeof UPDATE_PHASES)[number];
/** Phases after which nothing more happens to an update (never retried by itself). */
export const FINAL_PHASES: readonly UpdatePhase[] = ['succeeded', 'rolled-back', 'failed'];

/** When the device reboots into the new slot: `now`, `idle` (no job queued or printing, at most 10 minutes), `manual` (POST /system/reboot). */
export const RebootPolicySchema = Type.Union((['idle', 'now', 'manual'] as const).map((s) => Type.Literal(s)), { default: 'idle' });
/** A reboot policy. */
export type RebootPolicy = Static<typeof RebootPolicySchema>;

/** The update record, persisted in DATA/system/update.json: GET /system/update, the `system.update` event, GET /system's `update`. */
export const UpdateRecordSchema = Type.Object({
  id: Type.String({ description: 'the update\'s id, given by the 202' }),
  phase: Type.Union(UPDATE_PHASES.map((p) => Type.Literal(p))),
  progress: Type.Integer({ minimum: 0, maximum: 100, description: 'percent of the phase done (download, then install)' }),
  from: Type.Union([Type.String(), Type.Null()], { description: 'version of the booted slot when the update started' }),
  to: Type.Union([Type.String(), Type.Null()], { description: 'version of the bundle (null until an uploaded bundle without `version` is read)' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why the update failed or rolled back, naming the check' }),
  targetSlot: Type.Union([Type.String(), Type.Null()], { description: 'bootname of the slot RAUC installed to (the one not booted); null until installed' }),
  idempotencyKey: Type.Union([Type.String(), Type.Null()]),
  reboot: RebootPolicySchema,
  startedAt: Type.String({ format: 'date-time' }),
});
/** An update as the device reports it. */
export type UpdateRecord = Static<typeof UpdateRecordSchema>;

/** A SHA-256 in hex. */
const Sha256Schema = Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'SHA-256 of the bundle file, hex' });
/** A version: semver, e.g. 1.4.0 or 1.5.0-rc.1. */
const VersionSchema = Type.String({ pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$', maxLength: 128, description: 'the bundle\'s version (semver); must equal its manifest\'s' });

/** Body of POST /system/update (the URL form, the one the fleet may send). */
export const UpdateRequestSchema = Type.Object(
  {
    url: Type.String({ pattern: '^https?://', maxLength: 4096, description: 'where the bundle is fetched (http or https; a broken download resumes with Range)' }),
    sha256: Sha256Schema,
    size: Type.Integer({ minimum: 1, description: 'the bundle\'s size in bytes' }),
    version: VersionSchema,
    reboot: Type.Optional(RebootPolicySchema),
    allowDowngrade: Type.Optional(Type.Boolean({ description: 'install an older or equal version (HTTP with the key only; refused over MQTT)' })),
  },
  { additionalProperties: false },
);
/** A POST /system/update JSON body. */
export type UpdateRequest = Static<typeof UpdateRequestSchema>;

/** The query of POST /system/update with the bundle as an application/octet-stream body. */
export const UPDATE_UPLOAD_QUERY = [
  { name: 'version', description: 'octet-stream body: the bundle\'s version; when given it must equal the manifest\'s (absent: the manifest\'s)' },
  { name: 'sha256', description: 'octet-stream body: the bundle\'s SHA-256 (hex), checked when given' },
  { name: 'reboot', description: 'octet-stream body: idle (default), now or manual' },
  { name: 'allowDowngrade', description: 'octet-stream body: true to install an older or equal version' },
];

/** `content` of GET /system. */
export const SystemStatusSchema = Type.Object({
  bootSlot: Type.Union([Type.String(), Type.Null()], { description: 'bootname of the booted slot (A or B); null without RAUC (a laptop)' }),
  slots: Type.Array(SystemSlotSchema, { description: 'the root-filesystem slots, by name; empty without RAUC' }),
  update: Type.Union([UpdateRecordSchema, Type.Null()], { description: 'the last update, as GET /system/update; null before the first' }),
});
/** The device's slots. */
export type SystemStatus = Static<typeof SystemStatusSchema>;
