// Uploading a RAUC bundle: the file as the body of POST /system/update (streamed by the browser), the reboot policy and
// downgrade as query parameters; the 202 or the refusal, naming its check, in words.
import { useState } from 'preact/hooks';
import { ApiError } from './api';
import { useSession } from './session';
import type { RebootPolicy, UpdateRecord } from '../../src/schemas/system';
import { ErrorText, useAction } from './ui';
import { bytesText } from './words';

const REBOOTS: Array<[RebootPolicy, string]> = [
  ['idle', 'When no job is printing (at most 10 minutes)'],
  ['now', 'At once'],
  ['manual', 'When I press Reboot'],
];

/** The upload form; `running` disables it while another update has not ended (the device takes one at a time). */
export function UpdateUpload({ running }: { running: boolean }) {
  const { api, live } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [reboot, setReboot] = useState<RebootPolicy>('idle');
  const [downgrade, setDowngrade] = useState(false);
  const [accepted, setAccepted] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      if (!file) throw new Error('Choose a bundle file (.raucb) first.');
      setAccepted('');
      const query = new URLSearchParams({ reboot, ...(downgrade ? { allowDowngrade: 'true' } : {}) });
      const update = await api.upload<UpdateRecord>(`/system/update?${query}`, file).catch((err: unknown) => Promise.reject(refusal(err)));
      live.learnUpdate(update);
      setAccepted(`Accepted: the bundle was checked, and update ${update.id} (${update.from ?? 'unknown'} → ${update.to ?? 'unknown'}) is installing.`);
    });
  };
  return (
    <form class="form" onSubmit={submit} aria-label="Upload an update">
      <h3>Install an update</h3>
      <label for="sys-bundle">Update bundle</label>
      <input id="sys-bundle" type="file" accept=".raucb" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} aria-describedby="sys-bundle-help" />
      <p id="sys-bundle-help" class="sub">A signed RAUC bundle (.raucb) of this device's release line.{file ? ` Chosen: ${file.name}, ${bytesText(file.size)}.` : ''}</p>
      <label for="sys-reboot">Reboot into it</label>
      <select id="sys-reboot" value={reboot} onChange={(e) => setReboot(e.currentTarget.value as RebootPolicy)}>
        {REBOOTS.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
      </select>
      <label class="check"><input type="checkbox" checked={downgrade} onChange={(e) => setDowngrade(e.currentTarget.checked)} /> Allow an older or the same version</label>
      <div class="actions">
        <button type="submit" disabled={action.busy || running}>{action.busy ? 'Uploading…' : 'Upload and install'}</button>
        {running && <span class="sub">One update at a time: the current one must end first.</span>}
      </div>
      <span role="status">{accepted}</span>
      <ErrorText error={action.error} />
    </form>
  );
}

/** A refusal in words, naming the failed check when the device gave one. */
function refusal(err: unknown): Error {
  if (err instanceof ApiError && err.check) return new Error(`${err.message} (failed check: ${err.check})`);
  return err as Error;
}
