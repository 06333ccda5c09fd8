// Run by mdns.test.ts inside a private network namespace (multicast on its loopback): discovery and advertising.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import multicastDns from 'multicast-dns';
import { MdnsAdvertiser } from '../../src/discovery/mdns-advertiser';
import { silentLogger } from '../../src/log';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';

let emulator: ZplPrinterEmulator;
let port: number;
let advertisers: MdnsAdvertiser[];
let d: InProcessDaemon;

before(async () => {
  emulator = new ZplPrinterEmulator();
  port = await emulator.start();
  advertisers = [
    new MdnsAdvertiser({ hostName: 'zebra-dock', address: '127.0.0.1', services: [{ type: '_pdl-datastream._tcp', instance: 'Dock Zebra', port, txt: { ty: 'Zebra ZT411' } }], logger: silentLogger }),
    new MdnsAdvertiser({ hostName: 'office-laser', address: '127.0.0.1', services: [{ type: '_ipp._tcp', instance: 'Office Laser', port: 6310, txt: { rp: 'ipp/print', ty: 'Example Laser 2000', pdl: 'application/pdf,image/jpeg' } }], logger: silentLogger }),
  ];
  for (const a of advertisers) a.start();
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, true);
});
after(async () => {
  await d.stop();
  await Promise.all(advertisers.map((a) => a.stop()));
  await emulator.stop();
});

test('after GET /discover, GET /printers lists the advertised printers with path, content and discovered: true', async () => {
  const scan = await d.api('GET', '/discover');
  assert.equal(scan.status, 200);
  assert.equal(scan.body.result.content, null);
  const res = await d.api('GET', '/printers');
  const byPath = new Map<string, any>(res.body.result.content.map((p: any) => [p.path, p]));
  const zebra = byPath.get(`tcp_127-0-0-1_${port}`);
  assert.ok(zebra, JSON.stringify([...byPath.keys()]));
  assert.equal(zebra.content, 'zpl');
  assert.equal(zebra.discovered, true);
  assert.equal(zebra.model, 'Zebra ZT411');
  const laser = byPath.get('ipp_Office_Laser');
  assert.ok(laser, JSON.stringify([...byPath.keys()]));
  assert.equal(laser.content, 'pdf');
  assert.equal(laser.discovered, true);
  assert.deepEqual(laser.connection, { type: 'network', host: '127.0.0.1', port: 6310, protocol: 'ipp', resourcePath: '/ipp/print' });
  const list = await d.api('GET', '/printers');
  assert.ok(list.body.result.content.some((p: any) => p.path === 'ipp_Office_Laser'));
});

test('the device advertises itself as printproxy-<device_id>.local with _http._tcp', async () => {
  const deviceId = (await d.api('GET', '/status')).body.result.content.deviceId;
  const mdns = multicastDns({ loopback: true });
  try {
    const srv = await new Promise<{ port: number; target: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer for _http._tcp.local')), 3000);
      mdns.on('response', (packet) => {
        const record = packet.answers.find((r) => r.type === 'SRV' && r.name === `printproxy-${deviceId}._http._tcp.local`);
        if (!record) return;
        clearTimeout(timer);
        resolve(record.data as { port: number; target: string });
      });
      mdns.query({ questions: [{ name: '_http._tcp.local', type: 'PTR' }] });
    });
    assert.equal(srv.port, d.httpPort);
    assert.equal(srv.target, `printproxy-${deviceId}.local`);
  } finally {
    await new Promise<void>((r) => mdns.destroy(() => r()));
  }
});
