// The last update as the device reports it, live (GET /system/update, then system.update events): phase, progress,
// from → to, error.
import type { UpdateRecord } from '../../src/schemas/system';
import { phaseIsFinal, phaseText, timeText } from './words';

/** The update's facts; says so when the device has had none. */
export function UpdateProgress({ update }: { update: UpdateRecord | null | undefined }) {
  if (update === undefined) return <p class="sub">Last update: …</p>;
  if (update === null) return <p class="sub">No update has been installed on this device yet.</p>;
  return (
    <dl class="facts update" aria-label="Last update" data-update={update.id}>
      <dt>Update</dt><dd class={`update-phase ${update.phase}`} data-phase={update.phase} aria-live="polite">{phaseText(update.phase)}</dd>
      <dt>Progress</dt>
      <dd>
        <progress max={100} value={update.progress} aria-label="Progress of the update's phase" /> <span class="update-progress">{update.progress} %</span>
      </dd>
      <dt>Version</dt><dd class="update-versions">{update.from ?? 'unknown'} → {update.to ?? 'read from the bundle'}</dd>
      <dt>Error</dt><dd class="update-error">{update.error ?? 'None'}</dd>
      <dt>Started</dt><dd>{timeText(update.startedAt)}{phaseIsFinal(update.phase) ? '' : `, reboot ${update.reboot === 'manual' ? 'when asked' : update.reboot === 'now' ? 'at once' : 'when idle'}`}</dd>
    </dl>
  );
}
