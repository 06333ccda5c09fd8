// Settings: device settings, the system (slots and updates), the API key rotation, webhooks, fleet, shares and extensions.
import { useEffect, useState } from 'preact/hooks';
import { splitList } from './add-printer-form';
import { ExtensionsPanel } from './extensions-panel';
import { FleetPanel } from './fleet-panel';
import { useSession } from './session';
import { SharesPanel } from './shares-panel';
import { SystemPanel } from './system-panel';
import type { Settings } from './types';
import { ErrorText, useAction } from './ui';
import { WebhooksPanel } from './webhooks-panel';

/** The Settings page. */
export function SettingsPage() {
  return (
    <section>
      <h1>Settings</h1>
      <DeviceSettings />
      <SystemPanel />
      <ApiKeyPanel />
      <WebhooksPanel />
      <FleetPanel />
      <SharesPanel />
      <ExtensionsPanel />
    </section>
  );
}

function DeviceSettings() {
  const { api } = useSession();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [alias, setAlias] = useState('');
  const [origins, setOrigins] = useState('');
  const [bodyLimit, setBodyLimit] = useState('');
  const [workers, setWorkers] = useState('');
  const [saved, setSaved] = useState(false);
  const load = useAction();
  const save = useAction();
  const show = (s: Settings) => {
    setSettings(s);
    setAlias(s.alias);
    setOrigins(s.allowedOrigins.join('\n'));
    setBodyLimit(String(Math.round(s.maxBodyBytes / 1024 / 1024)));
    setWorkers(s.renderWorkers ? String(s.renderWorkers) : '');
  };
  useEffect(() => void load.run(async () => show(await api.get<Settings>('/settings'))), [api]);
  const submit = (event: Event) => {
    event.preventDefault();
    void save.run(async () => {
      setSaved(false);
      const body = { alias: alias.trim(), allowedOrigins: splitList(origins), maxBodyBytes: Math.round(Number(bodyLimit) * 1024 * 1024), renderWorkers: workers ? Number(workers) : null };
      show(await api.send<Settings>('PUT', '/settings', body));
      setSaved(true);
    });
  };
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="dev-h">
      <h2 id="dev-h">Device</h2>
      <ErrorText error={load.error} />
      <label for="st-alias">Alias</label>
      <input id="st-alias" value={alias} onInput={(e) => setAlias(e.currentTarget.value)} disabled={!settings} />
      <label for="st-origins">Allowed origins</label>
      <textarea id="st-origins" rows={3} value={origins} onInput={(e) => setOrigins(e.currentTarget.value)} disabled={!settings} aria-describedby="st-origins-help" />
      <p id="st-origins-help" class="sub">Web pages allowed to call the API from a browser, one per line; * allows any.</p>
      <label for="st-body">Body limit (MiB)</label>
      <input id="st-body" type="number" min={1} value={bodyLimit} onInput={(e) => setBodyLimit(e.currentTarget.value)} disabled={!settings} />
      <label for="st-workers">Render workers</label>
      <input id="st-workers" type="number" min={1} max={16} value={workers} onInput={(e) => setWorkers(e.currentTarget.value)} placeholder="One per CPU" disabled={!settings} />
      <div class="actions">
        <button type="submit" disabled={!settings || save.busy}>Save settings</button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
      <ErrorText error={save.error} />
    </form>
  );
}

function ApiKeyPanel() {
  const { api, useNewKey } = useSession();
  const [newKey, setNewKey] = useState<string | null>(null);
  const [copied, setCopied] = useState('');
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const rotate = () => action.run(async () => {
    const { apiKey } = await api.send<{ apiKey: string }>('POST', '/settings/api-key');
    setConfirming(false);
    useNewKey(apiKey);
    setNewKey(apiKey);
  });
  const copy = async () => {
    if (!newKey) return;
    try {
      await navigator.clipboard.writeText(newKey);
      setCopied('Copied.');
    } catch {
      (document.getElementById('new-key') as HTMLInputElement | null)?.select();
      setCopied('Selected: press Ctrl+C (or ⌘C) to copy.');
    }
  };
  return (
    <section class="card" aria-labelledby="key-h">
      <h2 id="key-h">API key</h2>
      <p class="sub">A new key replaces the old one at once: every client using the old key must be given the new one.</p>
      {!confirming && !newKey && <button type="button" onClick={() => setConfirming(true)}>Rotate API key</button>}
      {confirming && (
        <div class="actions">
          <button type="button" class="danger" onClick={() => void rotate()} disabled={action.busy}>Replace the key now</button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>Keep the current key</button>
        </div>
      )}
      {newKey && (
        <div class="new-key">
          <label for="new-key">New API key (shown once)</label>
          <div class="actions">
            <input id="new-key" readOnly value={newKey} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" onClick={() => void copy()}>Copy</button>
            <button type="button" class="secondary" onClick={() => setNewKey(null)}>Done</button>
          </div>
          <span role="status">{copied}</span>
        </div>
      )}
      <ErrorText error={action.error} />
    </section>
  );
}
