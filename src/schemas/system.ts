// The device itself (device-image.md): claiming it (POST/GET /setup).
import { Type, type Static } from '@sinclair/typebox';
import { ApiKeySchema } from './settings';

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
