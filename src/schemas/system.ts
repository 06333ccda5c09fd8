// The device itself (device-image.md): claiming it (POST/GET /setup), and the setup file.
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
