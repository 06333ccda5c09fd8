// Fleet settings routes (fleet.md): GET /fleet (secrets masked) and PUT /fleet (the whole object, applied at once).
import { FleetSettingsPutSchema, FleetSettingsSchema, type FleetSettings, type FleetSettingsPut } from '../../schemas/fleet';
import { CREDENTIALS, type Route } from '../route';

/** The fleet settings as the routes use them (the fleet's settings store). */
export interface FleetSettingsAccess {
  /** In force, secrets in clear. */
  readonly value: Readonly<FleetSettings>;
  /** As GET shows them. */
  masked(): FleetSettings;
  /** Stores a PUT body atomically (507 when it cannot), then makes it current. */
  replace(put: FleetSettingsPut): Promise<FleetSettings>;
}

/** Collaborators of the fleet routes. */
export interface FleetRouteDeps {
  settings: FleetSettingsAccess;
  /** Applies the settings just stored (`previous` were in force): reconnects with them. */
  apply: (previous: FleetSettings) => Promise<void>;
  /** Told after a successful PUT (the `device.settings` event). */
  changed: () => void;
}

/** GET /fleet and PUT /fleet. */
export function fleetRoutes(deps: FleetRouteDeps): Route[] {
  return [
    {
      method: 'get', path: '/fleet', tag: 'fleet', summary: 'Fleet (MQTT) settings; password and key masked',
      response: FleetSettingsSchema,
      handler: () => ({ message: 'Fleet settings retrieved.', content: deps.settings.masked() }),
    },
    {
      method: 'put', path: '/fleet', tag: 'fleet', fleet: CREDENTIALS, summary: 'Replace the fleet settings and reconnect with them; `********` keeps a stored password or key',
      body: FleetSettingsPutSchema, response: FleetSettingsSchema,
      responses: { 507: 'Device cannot store the change' },
      handler: async (req) => {
        const previous = { ...deps.settings.value };
        await deps.settings.replace(req.body as FleetSettingsPut);
        deps.changed();
        await deps.apply(previous);
        return { message: 'Fleet settings updated.', content: deps.settings.masked() };
      },
    },
  ];
}
