// Run by mdns-known-printer.test.ts inside a private network namespace: discovery never probes a printer that has a record.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MdnsAdvertiser } from '../../../src/discovery/mdns-advertiser';
import { silentLogger } from '../../../src/log';
import { SettingsStore } from '../../../src/settings/settings-store';
import { FakeUsbBus } from '../../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../../fixtures/zebra-tcp-printer';
import { startInProcess } from '../../helpers/in-process-daemon';
import { tempDir } from '../../helpers/temp-dir';

let configured: ZplPrinterEmulator;
let fresh: ZplPrinterEmulator;
let configuredPort: number;
let freshPort: number;
let advertisers: MdnsAdvertiser[];

before(async () => {
  configured = new ZplPrinterEmulator();
  fresh = new ZplPrinterEmulator();
  configuredPort = await configured.start();
  freshPort = await fresh.start();
  advertisers = [
    new MdnsAdvertiser({ hostName: 'configured-zebra', address: '127.0.0.1', services: [{ type: '_pdl-datastream._tcp', instance: 'Configured Zebra', port: configuredPort, txt: { ty: 'Zebra ZT411' } }], logger: silentLogger }),
    new MdnsAdvertiser({ hostName: 'fresh-zebra', address: '127.0.0.1', services: [{ type: '_pdl-datastream._tcp', instance: 'Fresh Zebra', port: freshPort, txt: { ty: 'Zebra ZT230' } }], logger: silentLogger }),
  ];
});
after(async () => {
  await Promise.all(advertisers.map((a) => a.stop()));
  await configured.stop();
  await fresh.stop();
});

test('a configured raw printer also advertised gets no probe from discovery, at start or on GET /discover; a new one is probed once', async () => {
  const dataDir = tempDir('printproxyd-mdns-known');
  const configuredPath = `tcp_127-0-0-1_${configuredPort}`;
  const freshPath = `tcp_127-0-0-1_${freshPort}`;
  // the printer is in the settings the daemon starts with, as a previous run would have left it
  const stored = new SettingsStore({ dataDir, logger: silentLogger });
  await stored.update((s) => {
    s.printers.push({ path: configuredPath, connection: { type: 'network', host: '127.0.0.1', port: configuredPort, protocol: 'tcp' }, content: 'zpl', tags: [] });
  });
  await stored.flush();
  for (const a of advertisers) a.start();
  const d = await startInProcess({ usb: () => new FakeUsbBus() }, dataDir, true);
  try {
    // start-up's scan (not awaited by the start) has ended once it adds the new printer
    const freshAdded = new Promise<void>((resolve) => {
      const stop = d.events.subscribe((event) => {
        if (event.type === 'printer.added' && (event.data as { path: string }).path === freshPath) resolve(stop());
      });
    });
    await freshAdded;
    assert.equal(configured.hostStatusAsked, 0, 'start-up discovery sent no ~HS to the configured printer');
    assert.equal(fresh.hostStatusAsked, 1, 'the new printer was probed once');
    const scan = await d.api('GET', '/discover');
    assert.equal(scan.status, 200);
    assert.equal(configured.hostStatusAsked, 0, 'GET /discover sent no ~HS to the configured printer');
    assert.equal(fresh.hostStatusAsked, 1, 'a known printer is not probed again');
    const listed = await d.api('GET', '/printers');
    const byPath = new Map<string, { content: string; discovered: boolean }>(listed.body.result.content.map((p: { path: string; content: string; discovered: boolean }) => [p.path, p]));
    assert.deepEqual([byPath.get(configuredPath)?.content, byPath.get(configuredPath)?.discovered], ['zpl', false], 'the configured printer keeps its record');
    assert.deepEqual([byPath.get(freshPath)?.content, byPath.get(freshPath)?.discovered], ['zpl', true], 'the new printer was found to speak ZPL');
  } finally {
    await d.stop();
  }
});
