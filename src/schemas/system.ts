// The device itself (device-image.md): claiming it (POST/GET /setup), the setup file, and its slots (GET /system).
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

/** `content` of GET /system. */
export const SystemStatusSchema = Type.Object({
  bootSlot: Type.Union([Type.String(), Type.Null()], { description: 'bootname of the booted slot (A or B); null without RAUC (a laptop)' }),
  slots: Type.Array(SystemSlotSchema, { description: 'the root-filesystem slots, by name; empty without RAUC' }),
  update: Type.Null({ description: 'the last update, as GET /system/update; null before the first' }),
});
/** The device's slots. */
export type SystemStatus = Static<typeof SystemStatusSchema>;
