// The System section of Settings: the A/B slots and their versions (GET /system), the last update followed live, a
// bundle upload, Reboot (an installed update waiting for it) and Roll back (to the other slot when it is good), and
// whether the fleet may start updates. Without RAUC (`npm start` on a laptop) it says so instead.
import { useEffect, useState } from 'preact/hooks';
import { FleetUpdatesToggle } from './fleet-updates-toggle';
import { useLive, useSession } from './session';
import type { SystemSlot, SystemStatus, UpdateRecord } from '../../src/schemas/system';
import { ErrorText, useAction } from './ui';
import { UpdateProgress } from './update-progress';
import { UpdateUpload } from './update-upload';
import { phaseIsFinal, slotGoodText, slotStateText, timeText } from './words';

/** The System section. */
export function SystemPanel() {
  const { api } = useSession();
  const { update } = useLive();
  const [system, setSystem] = useState<SystemStatus | null>(null);
  const load = useAction();
  // a phase change can change the slots (an install writes the other one): read them again at each
  useEffect(() => void load.run(async () => setSystem(await api.get<SystemStatus>('/system'))), [api, update?.phase]);
  const running = update ? !phaseIsFinal(update.phase) : false;
  return (
    <section class="card" aria-labelledby="sys-h">
      <h2 id="sys-h">System</h2>
      <Slots system={system} error={load.error} />
      <h3>Last update</h3>
      <UpdateProgress update={update} />
      <SystemActions system={system} update={update ?? null} running={running} />
      {system && system.slots.length > 0 && <UpdateUpload running={running} />}
      <h3>Updates from the fleet</h3>
      <FleetUpdatesToggle />
    </section>
  );
}

/** The slots, or why there are none: no RAUC on this machine, or RAUC not answering. */
function Slots({ system, error }: { system: SystemStatus | null; error: string | null }) {
  if (error) return <p class="notice slots-unavailable">The slots cannot be read, so updates are not possible now. {error}</p>;
  if (!system) return <p class="sub">Slots: …</p>;
  if (system.slots.length === 0) {
    return <p class="notice slots-unavailable">This machine has no A/B slots (no RAUC): the daemon runs outside the device image, where updates and rollback are not possible.</p>;
  }
  return (
    <>
      <p>Running from slot <strong class="boot-slot">{system.bootSlot ?? 'unknown'}</strong>.</p>
      <div class="table-wrap">
        <table class="slots">
          <thead><tr><th scope="col">Slot</th><th scope="col">Version</th><th scope="col">State</th><th scope="col">Boot mark</th><th scope="col">Installed</th></tr></thead>
          <tbody>{system.slots.map((slot) => <SlotRow key={slot.name} slot={slot} />)}</tbody>
        </table>
      </div>
    </>
  );
}

function SlotRow({ slot }: { slot: SystemSlot }) {
  return (
    <tr data-slot={slot.bootname ?? slot.name} aria-current={slot.state === 'booted' ? 'true' : undefined}>
      <td data-label="Slot">{slot.bootname ?? slot.name} <span class="sub">{slot.name}</span></td>
      <td data-label="Version" class="slot-version">{slot.version ?? 'Not recorded'}</td>
      <td data-label="State" class={`slot-state ${slot.state}`}>{slotStateText(slot.state)}</td>
      <td data-label="Boot mark" class={`slot-good ${String(slot.good)}`}>{slotGoodText(slot.good)}</td>
      <td data-label="Installed">{slot.installedAt ? timeText(slot.installedAt) : 'Not recorded'}</td>
    </tr>
  );
}

/** Reboot when an installed update waits for it; Roll back (after a confirmation) when the other slot is good and no update runs. */
function SystemActions({ system, update, running }: { system: SystemStatus | null; update: UpdateRecord | null; running: boolean }) {
  const { api } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState('');
  const action = useAction();
  const other = system ? otherSlot(system) : undefined;
  const name = other ? `slot ${other.bootname ?? other.name} (${other.version ?? 'version not recorded'})` : '';
  const reboot = () => action.run(async () => {
    await api.send('POST', '/system/reboot');
    setNotice('Reboot requested: the device restarts into the new slot; this page reconnects when it is back.');
  });
  const rollback = () => action.run(async () => {
    await api.send('POST', '/system/rollback');
    setConfirming(false);
    setNotice(`Rollback requested: the device restarts into ${name}.`);
  });
  return (
    <>
      <div class="actions">
        {update?.phase === 'awaiting-reboot' && <button type="button" onClick={() => void reboot()} disabled={action.busy}>Reboot now</button>}
        {other?.good === true && !running && !confirming && <button type="button" class="secondary" onClick={() => setConfirming(true)}>Roll back to {name}</button>}
        {confirming && (
          <>
            <button type="button" class="danger" onClick={() => void rollback()} disabled={action.busy}>Roll back and reboot now</button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>Keep the running slot</button>
          </>
        )}
      </div>
      <span role="status">{notice}</span>
      <ErrorText error={action.error} />
    </>
  );
}

/** The root slot that is not booted (the one an update installs to, and a rollback boots). */
function otherSlot(system: SystemStatus): SystemSlot | undefined {
  return system.slots.find((slot) => slot.state !== 'booted' && slot.bootname !== system.bootSlot);
}
