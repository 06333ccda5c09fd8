// Extension settings routes: read (secrets masked) and replace the whole array (seed 4.8, decisions.md).
import { ExtensionSettingsListSchema, type ExtensionSettings } from '../../schemas/settings';
import type { SettingsStore } from '../../settings/settings-store';
import { isMask, maskExtension } from '../../settings/masking';
import { CREDENTIALS, type Route } from '../route';

/** GET/PUT /extensions/settings. */
export function extensionRoutes(settings: SettingsStore): Route[] {
  return [
    {
      method: 'get', path: '/extensions/settings', tag: 'settings', summary: 'Extension settings (client secrets masked)',
      response: ExtensionSettingsListSchema,
      handler: () => ({ message: 'Extension settings retrieved.', content: settings.value.extensions.map(maskExtension) }),
    },
    {
      method: 'put', path: '/extensions/settings', tag: 'settings', fleet: CREDENTIALS, summary: 'Replace every extension setting (a masked secret keeps the stored one)',
      body: ExtensionSettingsListSchema, response: ExtensionSettingsListSchema, responses: { 507: 'Device cannot store the change' },
      handler: async (req) => {
        const next = keepMaskedSecrets(req.body as ExtensionSettings[], settings.value.extensions);
        await settings.update((s) => {
          s.extensions = next;
        });
        return { message: 'Extension settings updated.', content: next.map(maskExtension) };
      },
    },
  ];
}

function keepMaskedSecrets(next: ExtensionSettings[], old: readonly ExtensionSettings[]): ExtensionSettings[] {
  return next.map((ext) => ({
    ...ext,
    instances: ext.instances.map((inst) => {
      if (!isMask(inst.clientSecret)) return inst;
      const before = old.find((o) => o.name === ext.name)?.instances.find((i) => i.id === inst.id);
      return { ...inst, clientSecret: before?.clientSecret ?? '' };
    }),
  }));
}
