// Fleet: the MQTT bridge's settings (GET/PUT /fleet) and its state (`fleet` in GET /status); secrets are write-only.
import { useEffect, useState } from 'preact/hooks';
import { useSession } from './session';
import type { DeviceStatus } from '../../src/schemas/device';
import type { FleetSettings, FleetStatus } from '../../src/schemas/fleet';
import { ErrorText, useAction } from './ui';
import { timeText } from './words';

const MASK = '********';
/** How often the panel re-reads the bridge's state while it is shown, in ms. */
const STATUS_POLL_MS = 3000;

type TextField = 'brokerUrl' | 'deviceId' | 'topicPrefix' | 'username' | 'password' | 'ca' | 'cert' | 'key' | 'keepaliveSec' | 'sessionExpirySec' | 'inlineMaxBytes';
type Form = Record<TextField, string> & { enabled: boolean };

/** The Fleet section of Settings. */
export function FleetPanel() {
  const { api } = useSession();
  const [stored, setStored] = useState<FleetSettings | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [status, setStatus] = useState<FleetStatus | null>(null);
  const [saved, setSaved] = useState(false);
  const load = useAction();
  const save = useAction();
  const show = (s: FleetSettings) => {
    setStored(s);
    setForm(formOf(s));
  };
  const readStatus = async () => setStatus((await api.get<DeviceStatus>('/status')).fleet ?? null);
  useEffect(() => {
    void load.run(async () => {
      show(await api.get<FleetSettings>('/fleet'));
      await readStatus();
    });
    const timer = setInterval(() => void readStatus().catch(() => undefined), STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [api]);
  const submit = (event: Event) => {
    event.preventDefault();
    if (!form || !stored) return;
    void save.run(async () => {
      setSaved(false);
      show(await api.send<FleetSettings>('PUT', '/fleet', bodyOf(form, stored)));
      setSaved(true);
      await readStatus();
    });
  };
  const set = (name: TextField) => ({
    value: form?.[name] ?? '',
    disabled: !form,
    onInput: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
      const value = e.currentTarget.value;
      setForm((f) => (f ? { ...f, [name]: value } : f));
    },
  });
  const upload = (name: 'ca' | 'cert' | 'key') => async (e: { currentTarget: HTMLInputElement }) => {
    const file = e.currentTarget.files?.[0];
    if (!file) return;
    const text = await file.text();
    setForm((f) => (f ? { ...f, [name]: text.trim() } : f));
  };
  return (
    <section class="card" aria-labelledby="fl-h">
      <h2 id="fl-h">Fleet</h2>
      <p class="sub">Connects this device out to your company's MQTT broker, so a central system can print here and see its jobs and printers.</p>
      <FleetState status={status} />
      <ErrorText error={load.error} />
      <form class="form" onSubmit={submit} aria-label="Fleet settings">
        <label class="check"><input id="fl-enabled" type="checkbox" checked={form?.enabled ?? false} disabled={!form} onChange={(e) => { const on = e.currentTarget.checked; setForm((f) => (f ? { ...f, enabled: on } : f)); }} /> Connect to the fleet broker</label>
        <label for="fl-url">Broker URL</label>
        <input id="fl-url" {...set('brokerUrl')} placeholder="mqtts://broker.example.com:8883" aria-describedby="fl-url-help" />
        <p id="fl-url-help" class="sub">{form?.brokerUrl.startsWith('mqtt://') ? 'mqtt:// is not encrypted: use mqtts:// outside a test network.' : 'mqtts:// (TLS), or mqtt:// without encryption.'}</p>
        <label for="fl-device">Device ID</label>
        <input id="fl-device" {...set('deviceId')} aria-describedby="fl-device-help" />
        <p id="fl-device-help" class="sub">Lower-case letters, digits and dashes; also the MQTT client id, and the CN of the device's certificate.</p>
        <label for="fl-prefix">Topic prefix</label>
        <input id="fl-prefix" {...set('topicPrefix')} />
        <label for="fl-ca">CA certificate (PEM)</label>
        <textarea id="fl-ca" rows={3} {...set('ca')} placeholder="-----BEGIN CERTIFICATE-----" />
        <input type="file" accept=".pem,.crt,.cer" aria-label="Upload CA certificate" onChange={upload('ca')} disabled={!form} />
        <label for="fl-cert">Device certificate (PEM)</label>
        <textarea id="fl-cert" rows={3} {...set('cert')} placeholder="-----BEGIN CERTIFICATE-----" />
        <input type="file" accept=".pem,.crt,.cer" aria-label="Upload device certificate" onChange={upload('cert')} disabled={!form} />
        <label for="fl-key">Device private key (PEM)</label>
        <textarea id="fl-key" rows={3} {...set('key')} placeholder={stored?.key === MASK ? 'A key is stored; paste or upload one to replace it' : '-----BEGIN PRIVATE KEY-----'} />
        <input type="file" accept=".pem,.key" aria-label="Upload device private key" onChange={upload('key')} disabled={!form} />
        <label for="fl-user">Username</label>
        <input id="fl-user" {...set('username')} placeholder="None (the certificate identifies the device)" />
        <label for="fl-pass">Password</label>
        <input id="fl-pass" type="password" autocomplete="new-password" {...set('password')} placeholder={stored?.password === MASK ? 'A password is stored; type one to replace it' : 'None'} />
        <details>
          <summary>Advanced</summary>
          <div class="form">
            <label for="fl-keepalive">Keepalive (s)</label>
            <input id="fl-keepalive" type="number" min={5} max={1200} {...set('keepaliveSec')} />
            <label for="fl-session">Session expiry (s)</label>
            <input id="fl-session" type="number" min={0} max={604800} {...set('sessionExpirySec')} />
            <label for="fl-inline">Largest request (bytes)</label>
            <input id="fl-inline" type="number" min={1024} max={1048576} {...set('inlineMaxBytes')} />
          </div>
        </details>
        <div class="actions">
          <button type="submit" disabled={!form || save.busy}>Save fleet settings</button>
          <span role="status">{saved ? 'Saved.' : ''}</span>
        </div>
        <ErrorText error={save.error} />
      </form>
    </section>
  );
}

/** The bridge's state in words: connected since when, connecting, or the broker's last error. */
function FleetState({ status }: { status: FleetStatus | null }) {
  if (!status) return <p class="sub">State: …</p>;
  return (
    <dl class="facts" aria-label="Fleet state">
      <dt>State</dt><dd class="fleet-state" data-state={status.state}>{stateText(status)}</dd>
      <dt>Broker</dt><dd>{status.brokerUrl ?? 'None'}</dd>
      <dt>Last error</dt><dd>{status.lastError ?? 'None'}</dd>
      <dt>Events waiting</dt><dd>{status.pendingEvents}</dd>
    </dl>
  );
}

function stateText(status: FleetStatus): string {
  switch (status.state) {
    case 'disabled':
      return 'Off';
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return status.connectedSince ? `Connected since ${timeText(status.connectedSince)}` : 'Connected';
    case 'error':
      return 'Not connected: the broker refused or could not be reached';
  }
}

function formOf(s: FleetSettings): Form {
  return {
    enabled: s.enabled,
    brokerUrl: s.brokerUrl ?? '',
    deviceId: s.deviceId ?? '',
    topicPrefix: s.topicPrefix ?? '',
    username: s.username ?? '',
    // a stored secret is never shown: an empty field keeps it
    password: '',
    ca: s.ca ?? '',
    cert: s.cert ?? '',
    key: '',
    keepaliveSec: String(s.keepaliveSec),
    sessionExpirySec: String(s.sessionExpirySec),
    inlineMaxBytes: String(s.inlineMaxBytes),
  };
}

function bodyOf(form: Form, stored: FleetSettings): FleetSettings {
  const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
  const secret = (v: string, was: string | null) => (v === '' ? (was === MASK ? MASK : null) : v);
  return {
    enabled: form.enabled,
    brokerUrl: orNull(form.brokerUrl),
    deviceId: form.deviceId.trim(),
    topicPrefix: form.topicPrefix.trim(),
    username: orNull(form.username),
    password: secret(form.password, stored.password),
    ca: orNull(form.ca),
    cert: orNull(form.cert),
    key: secret(form.key.trim(), stored.key),
    keepaliveSec: Number(form.keepaliveSec),
    sessionExpirySec: Number(form.sessionExpirySec),
    inlineMaxBytes: Number(form.inlineMaxBytes),
  };
}
