// Run by mdns-rescan.test.ts inside a private network namespace: a rescan does not probe a raw-socket printer it knows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MdnsAdvertiser } from '../../../src/discovery/mdns-advertiser';
import { MdnsDiscovery } from '../../../src/kinds/ipp/mdns-discovery';
import { silentLogger } from '../../../src/log';

let advertiser: MdnsAdvertiser;

before(() => {
  advertiser = new MdnsAdvertiser({ hostName: 'dock-zebra', address: '127.0.0.1', services: [{ type: '_pdl-datastream._tcp', instance: 'Dock Zebra', port: 9100, txt: { ty: 'Zebra ZT411' } }], logger: silentLogger });
  advertiser.start();
});
after(() => advertiser.stop());

test('a _pdl-datastream printer is probed when first seen only; later scans keep the content it was found with', async () => {
  const probed: string[] = [];
  const discovery = new MdnsDiscovery({ scanMs: 600, rescanMs: 60_000, probeRaw: async (host, port) => (probed.push(`${host}:${port}`), 'zpl'), printerAt: () => null, logger: silentLogger });
  const first = await discovery.scan();
  assert.deepEqual(first.map((p) => [p.path, p.content]), [['tcp_127-0-0-1_9100', 'zpl']]);
  const second = await discovery.scan();
  assert.deepEqual(second.map((p) => [p.path, p.content]), [['tcp_127-0-0-1_9100', 'zpl']]);
  assert.deepEqual(probed, ['127.0.0.1:9100'], 'one probe, at the first sighting');
});
