// The setting updates.fromFleet: whether the fleet (MQTT) may start an update by URL; saved as soon as it is switched.
import { useEffect, useState } from 'preact/hooks';
import { useSession } from './session';
import type { Settings } from './types';
import { ErrorText, useAction } from './ui';

/** The fromFleet checkbox of the System panel: read from GET /settings, written with PUT /settings/updates. */
export function FleetUpdatesToggle() {
  const { api } = useSession();
  const [fromFleet, setFromFleet] = useState<boolean | null>(null);
  const [saved, setSaved] = useState('');
  const action = useAction();
  useEffect(() => void action.run(async () => setFromFleet((await api.get<Settings>('/settings')).updates.fromFleet)), [api]);
  // the box shows the choice at once, and goes back when the device refuses it
  const change = (on: boolean) => action.run(async () => {
    setSaved('');
    setFromFleet(on);
    const answer = await api.send<Settings['updates']>('PUT', '/settings/updates', { fromFleet: on }).catch((err: unknown) => {
      setFromFleet(!on);
      throw err;
    });
    setFromFleet(answer.fromFleet);
    setSaved(answer.fromFleet ? 'Saved: the fleet may start updates.' : 'Saved: updates come only from this console or the API.');
  });
  return (
    <div class="form">
      <label class="check">
        <input id="sys-from-fleet" type="checkbox" checked={fromFleet ?? false} disabled={fromFleet === null || action.busy} onChange={(e) => void change(e.currentTarget.checked)} aria-describedby="sys-from-fleet-help" />
        Let the fleet start updates
      </label>
      <p id="sys-from-fleet-help" class="sub">The fleet's broker may then send a bundle's URL to install. It can never install an older version, reboot or roll back.</p>
      <span role="status">{saved}</span>
      <ErrorText error={action.error} />
    </div>
  );
}
