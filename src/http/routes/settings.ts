// Settings routes: read (secrets masked), update, regenerate the API key (seed 4.8, decisions.md).
import { Type } from '@sinclair/typebox';
import { SettingsPutBodySchema, UpdateSettingsSchema, type SettingsPutBody, type UpdateSettings } from '../../schemas/settings';
import { generateApiKey, type SettingsStore } from '../../settings/settings-store';
import { maskApiKey, maskExtension, maskShare } from '../../settings/masking';
import { applyChange } from '../../settings/apply-change';
import { renderWorkersOf } from '../../settings/render-workers';
import { printerSettingsView } from '../../printers/printer-view';
import type { PrinterRegistry } from '../../printers/registry';
import { CREDENTIALS, HTTP_ONLY, type Route } from '../route';

/** Collaborators of the settings routes. */
export interface SettingsRouteDeps {
  settings: SettingsStore;
  registry: PrinterRegistry;
}

/** GET/PUT /settings, PUT /settings/updates and POST /settings/api-key. */
export function settingsRoutes(deps: SettingsRouteDeps): Route[] {
  const content = () => {
    const s = deps.settings.value;
    return {
      // null only on an unclaimed device, whose keyed routes answer 401 before they get here
      apiKey: s.apiKey === null ? null : maskApiKey(s.apiKey),
      extensions: s.extensions.map(maskExtension),
      shares: s.shares.map(maskShare),
      printers: deps.registry.list().map(printerSettingsView),
      subDomain: s.subDomain,
      alias: s.alias,
      deviceId: s.deviceId,
      allowedOrigins: s.allowedOrigins,
      maxBodyBytes: s.maxBodyBytes,
      renderWorkers: renderWorkersOf(s),
      updates: { fromFleet: s.updates?.fromFleet === true },
    };
  };
  return [
    {
      method: 'get', path: '/settings', tag: 'settings', summary: 'Device settings (secrets masked)',
      handler: () => ({ message: 'Settings retrieved.', content: content() }),
    },
    {
      method: 'put', path: '/settings', tag: 'settings', summary: 'Change alias, subDomain, allowedOrigins, maxBodyBytes or renderWorkers (null: back to the default)',
      body: SettingsPutBodySchema, responses: { 507: 'Device cannot store the change' },
      handler: async (req) => {
        const body = req.body as SettingsPutBody;
        await deps.settings.update((s) => applyChange(s, body));
        return { message: 'Settings updated.', content: content() };
      },
    },
    {
      method: 'put', path: '/settings/updates', tag: 'settings', summary: 'Whether the fleet (MQTT) may start an update by URL (updates.fromFleet, default false)',
      description: 'Written over HTTP with the key only: refused with 403 over MQTT, like the credentials, so a broker cannot turn it on.',
      body: UpdateSettingsSchema, response: UpdateSettingsSchema, responses: { 507: 'Device cannot store the change' }, fleet: HTTP_ONLY,
      handler: async (req) => {
        const body = req.body as UpdateSettings;
        await deps.settings.update((s) => {
          s.updates = { fromFleet: body.fromFleet };
        });
        return { message: 'Update settings changed.', content: { fromFleet: deps.settings.value.updates?.fromFleet === true } };
      },
    },
    {
      method: 'post', path: '/settings/api-key', tag: 'settings', summary: 'Regenerate the API key; the new key is returned once', fleet: CREDENTIALS,
      response: Type.Object({ apiKey: Type.String() }), responses: { 507: 'Device cannot store the change' },
      handler: async (req) => {
        const apiKey = generateApiKey();
        // a key nobody was shown would lock the device: when the caller has gone, the old key stays
        await deps.settings.update((s) => {
          s.apiKey = apiKey;
        }, req.signal);
        return { message: 'API key regenerated.', content: { apiKey } };
      },
    },
  ];
}
