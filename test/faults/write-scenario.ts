// A fixed sequence of settings, printer and spool writes, run by the SIGKILL test's child and, without a kill, by the test itself.
import { join } from 'node:path';
import { silentLogger } from '../../src/log';
import { locateManual, pathFromUri } from '../../src/kinds';
import { PrinterRegistry } from '../../src/printers/registry';
import { SettingsStore } from '../../src/settings/settings-store';
import { DiskSpool, type SpoolEntry } from '../../src/spooler/disk-spool';

/** The API key every run starts with (the template settings.json holds it). */
export const SCENARIO_KEY = 'kill-test-key-0123456789';

/** Inline bytes of the spooled jobs; null for a job fetched from a URL. */
export const JOB_BYTES: Record<string, Buffer | null> = {
  pj_one: Buffer.alloc(6000, '^XA^FDone^FS^XZ'),
  pj_two: null,
  pj_three: Buffer.alloc(3000, '^XA^FDthree^FS^XZ'),
};

/** One acknowledged step; `jobs` says what it does to the spool. */
export interface ScenarioStep {
  name: string;
  run: () => Promise<void>;
  spool?: { op: 'put' | 'sending' | 'remove'; jobId: string };
}

/** The store and the steps writing into `dataDir` (its settings.json must be the template). */
export function writeScenario(dataDir: string): { store: SettingsStore; steps: ScenarioStep[] } {
  const store = new SettingsStore({ dataDir, logger: silentLogger });
  const registry = new PrinterRegistry({ settings: store, sources: [], locate: locateManual, pathFromUri, probeContent: () => Promise.resolve('zpl'), reportedDpi: () => undefined, logger: silentLogger });
  const spool = new DiskSpool(join(dataDir, 'spool'));
  const tcp = (port: number) => ({ type: 'network' as const, host: '127.0.0.1', port, protocol: 'tcp' as const });
  const put = (jobId: string, seq: number) => ({ name: `put ${jobId}`, spool: { op: 'put' as const, jobId }, run: () => spool.put(spoolEntry(jobId, seq), JOB_BYTES[jobId]) });
  const steps: ScenarioStep[] = [
    { name: 'add printer a', run: async () => void (await registry.add({ connection: tcp(9101), content: 'zpl', tags: ['a'] })) },
    { name: 'add printer b', run: async () => void (await registry.add({ connection: tcp(9102), content: 'raw', tags: ['b'] })) },
    { name: 'patch printer a', run: async () => void (await registry.patch('tcp_127-0-0-1_9101', { tags: ['a2'], dpi: 300 })) },
    {
      name: 'three writes at once',
      run: async () => {
        await Promise.all([
          registry.patch('tcp_127-0-0-1_9102', { tags: ['b2'], dither: true }),
          store.update((s) => void (s.alias = 'shelf-7')),
          store.update((s) => void s.shares.push({ sharePath: '/mnt/labels', alias: '', username: 'u', password: 'p', server: 'nas', browsable: false, uuid: 'share-1' })),
        ]);
      },
    },
    put('pj_one', 1),
    put('pj_two', 2),
    { name: 'sending pj_one', spool: { op: 'sending', jobId: 'pj_one' }, run: () => spool.markSending('pj_one') },
    { name: 'new api key', run: () => store.update((s) => void (s.apiKey = 'kill-test-key-second-one')) },
    { name: 'remove printer a', run: async () => void (await registry.remove('tcp_127-0-0-1_9101')) },
    { name: 'remove pj_one', spool: { op: 'remove', jobId: 'pj_one' }, run: () => spool.remove('pj_one') },
    { name: 'extensions', run: () => store.update((s) => void (s.extensions = [{ name: 'netbird', enabled: true, instances: [] }])) },
    put('pj_three', 3),
    { name: 'persist unchanged', run: () => store.persist() },
  ];
  return { store, steps };
}

function spoolEntry(jobId: string, seq: number): SpoolEntry {
  const inline = JOB_BYTES[jobId] !== null;
  return {
    seq,
    job: { jobId, printer: 'tcp_127-0-0-1_9102', target: 'tcp_127-0-0-1_9102', title: jobId, source: null, state: 'queued', error: null, errorCode: null, createdAt: new Date(0).toISOString(), completedAt: null, contentType: 'zpl', size: 0, cupsJobId: null, printedAt: null },
    document: { source: inline ? { kind: 'inline' } : { kind: 'url', url: 'http://127.0.0.1:1/label.zpl' }, format: 'zpl', contentType: 'zpl' },
    options: {} as SpoolEntry['options'],
  };
}
