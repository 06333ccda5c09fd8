// Overview: device status, printers by status, jobs of the last hour by state.
import { useEffect, useState } from 'preact/hooks';
import { useLive, useSession } from './session';
import type { DeviceStatus } from '../../src/schemas/device';
import type { Settings } from './types';
import { ErrorText, useAction } from './ui';
import { bytesText, durationText, statusText } from './words';

const HOUR_MS = 3_600_000;

/** The Overview page. */
export function OverviewPage() {
  const { api } = useSession();
  const live = useLive();
  const [status, setStatus] = useState<DeviceStatus | null>(null);
  const [alias, setAlias] = useState('');
  const action = useAction();
  useEffect(() => {
    void action.run(async () => {
      const [s, settings] = await Promise.all([api.get<DeviceStatus>('/status'), api.get<Settings>('/settings')]);
      setStatus(s);
      setAlias(settings.alias);
    });
  }, [api]);
  const since = Date.now() - HOUR_MS;
  const recent = (live.jobs ?? []).filter((j) => Date.parse(j.createdAt) >= since);
  return (
    <section>
      <h1>Overview</h1>
      <ErrorText error={action.error ?? live.error} />
      <div class="grid">
        <section class="card" aria-labelledby="device-h">
          <h2 id="device-h">Device</h2>
          <dl class="facts">
            <dt>Name</dt><dd>{status ? alias || `printproxy-${status.deviceId}` : '…'}</dd>
            <dt>Version</dt><dd>{status?.version ?? '…'}</dd>
            <dt>Uptime</dt><dd>{status ? durationText(status.uptime) : '…'}</dd>
            <dt>Memory</dt><dd>{status ? `${bytesText(status.freeMemory)} free of ${bytesText(status.totalMemory)}` : '…'}</dd>
            <dt>Addresses</dt><dd>{status ? [status.ipAddress, `${status.hostname}${status.domain ? `.${status.domain}` : ''}`, `printproxy-${status.deviceId}.local`].join(', ') : '…'}</dd>
            <dt>Extensions</dt><dd>{status ? (status.extensions.length ? status.extensions.map((e) => `${e.name} (${e.instances.filter((i) => i.active).length} of ${e.instances.length} active)`).join(', ') : 'None') : '…'}</dd>
          </dl>
          {status && status.warnings.length > 0 && (
            <>
              <h3>Warnings</h3>
              <ul class="warnings">{status.warnings.map((w) => <li key={w}>{w}</li>)}</ul>
            </>
          )}
        </section>
        <section class="card" aria-labelledby="printers-h">
          <h2 id="printers-h">Printers by status</h2>
          <Counts counts={countBy(live.printers ?? [], (p) => statusText(p.status))} empty="No printers yet." loading={!live.printers} />
        </section>
        <section class="card" aria-labelledby="jobs-h">
          <h2 id="jobs-h">Jobs of the last hour</h2>
          <Counts counts={countBy(recent, (j) => j.state)} empty="No jobs in the last hour." loading={!live.jobs} />
        </section>
      </div>
    </section>
  );
}

function Counts({ counts, empty, loading }: { counts: Array<[string, number]>; empty: string; loading: boolean }) {
  if (loading) return <p>Loading…</p>;
  if (counts.length === 0) return <p>{empty}</p>;
  return (
    <dl class="facts">
      {counts.map(([name, n]) => [<dt key={`${name}-t`}>{name}</dt>, <dd key={`${name}-d`}>{n}</dd>])}
    </dl>
  );
}

function countBy<T>(items: T[], key: (item: T) => string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0].localeCompare(b[0]));
}
