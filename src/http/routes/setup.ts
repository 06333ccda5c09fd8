// Claim on first visit (device-image.md "Setup without a screen"): GET /setup says whether a key is set, POST /setup sets the first one.
import { SetupBodySchema, SetupStateSchema, type SetupBody } from '../../schemas/system';
import { CREDENTIALS, type Route } from '../route';

/** The part of the settings store the setup routes use. */
export interface SetupAccess {
  /** True once an API key is set. */
  readonly claimed: boolean;
  /** Stores the first key (on disk, then in force); rejects with ALREADY_SET_UP once one is set, CHANGE_NOT_STORED when it cannot be stored. */
  claim(apiKey: string, abandoned?: AbortSignal): Promise<void>;
}

/** GET /setup and POST /setup, both without a key. */
export function setupRoutes(settings: SetupAccess): Route[] {
  return [
    {
      method: 'get', path: '/setup', tag: 'device', auth: false, summary: 'Whether the device has an API key yet (public, read-only)',
      description:
        'Public so that the web console can tell, before anyone signs in, whether to show its one-time "Set the API key" page ' +
        '(claimed: false) or its sign-in (claimed: true). It tells nothing else: no key, no part of one, no other setting.',
      response: SetupStateSchema,
      handler: () => ({ message: settings.claimed ? 'Device is set up.' : 'Device not set up.', content: { claimed: settings.claimed } }),
    },
    {
      method: 'post', path: '/setup', tag: 'device', auth: false, fleet: CREDENTIALS, summary: 'Set the first API key of an unclaimed device; 409 once it has one',
      description:
        'Needs no key: answers 201 once, on a device without a key (no setup file key, no PRINTPROXY_API_KEY, nothing stored), and ' +
        'stores the key before it is in force; from then on every call needs it, and this route answers 409 (change the key with ' +
        'POST /settings/api-key). Until then every other API call answers 401 "Device not set up". When the caller goes away before ' +
        'the answer, the key is not kept. Refused over the fleet (MQTT), like every credential write.',
      body: SetupBodySchema, response: SetupStateSchema,
      responses: { 201: 'API key set: the device is claimed', 409: 'Device already set up', 507: 'Device cannot store the change' },
      handler: async (req) => {
        await settings.claim((req.body as SetupBody).apiKey, req.signal);
        return { status: 201, message: 'API key set.', content: { claimed: true } };
      },
    },
  ];
}
