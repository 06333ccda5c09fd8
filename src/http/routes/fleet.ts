// Fleet settings routes (fleet.md): GET /fleet (secrets masked) and PUT /fleet (the whole object, applied at once).
import { FleetSettingsPutSchema, FleetSettingsSchema, type FleetSettings, type FleetSettingsPut } from '../../schemas/fleet';
import type { FleetSettingsStore } from '../../fleet/fleet-settings-store';
import type { Route } from '../route';

/** Collaborators of the fleet routes. */
export interface FleetRouteDeps {
  settings: FleetSettingsStore;
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
      method: 'put', path: '/fleet', tag: 'fleet', summary: 'Replace the fleet settings and reconnect with them; `********` keeps a stored password or key',
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
