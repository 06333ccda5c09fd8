// Run by mdns.test.ts inside a private network namespace (multicast on its loopback): discovery and advertising.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import multicastDns from 'multicast-dns';
import { MdnsAdvertiser } from '../../src/discovery/mdns-advertiser';
import { silentLogger } from '../../src/log';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';

let emulator: ZplPrinterEmulator;
let port: number;
let advertisers: MdnsAdvertiser[];
// a raw-socket printer that never answers ~HS (a receipt or other non-ZPL printer)
let quiet: net.Server;
let quietPort: number;
let d: InProcessDaemon;

before(async () => {
  emulator = new ZplPrinterEmulator();
  port = await emulator.start();
  quiet = net.createServer((socket) => socket.on('data', () => undefined).on('error', () => undefined));
  await new Promise<void>((r) => quiet.listen(0, '127.0.0.1', r));
  quietPort = (quiet.address() as net.AddressInfo).port;
  advertisers = [
    new MdnsAdvertiser({ hostName: 'zebra-dock', address: '127.0.0.1', services: [{ type: '_pdl-datastream._tcp', instance: 'Dock Zebra', port, txt: { ty: 'Zebra ZT411' } }], logger: silentLogger }),
    new MdnsAdvertiser({ hostName: 'secure-laser', address: '127.0.0.1', services: [{ type: '_ipps._tcp', instance: 'Secure Laser', port: 6311, txt: { rp: 'ipp/print', ty: 'Example Laser 3000' } }], logger: silentLogger }),
    new MdnsAdvertiser({ hostName: 'quiet-box', address: '127.0.0.1', services: [{ type: '_pdl-datastream._tcp', instance: 'Quiet Box', port: quietPort, txt: { ty: 'Receipt 80' } }], logger: silentLogger }),
    new MdnsAdvertiser({ hostName: 'office-laser', address: '127.0.0.1', services: [{ type: '_ipp._tcp', instance: 'Office Laser', port: 6310, txt: { rp: 'ipp/print', ty: 'Example Laser 2000', pdl: 'application/pdf,image/jpeg' } }], logger: silentLogger }),
  ];
  for (const a of advertisers) a.start();
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, true, true);
});
after(async () => {
  await d.stop();
  await Promise.all(advertisers.map((a) => a.stop()));
  await emulator.stop();
  quiet.close();
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
  const laser = byPath.get('ipp_127-0-0-1_6310');
  assert.ok(laser, JSON.stringify([...byPath.keys()]));
  assert.equal(laser.content, 'pdf');
  assert.equal(laser.discovered, true);
  assert.deepEqual(laser.connection, { type: 'network', host: '127.0.0.1', port: 6310, protocol: 'ipp', resourcePath: '/ipp/print' });
  const secure = byPath.get('ipp_127-0-0-1_6311');
  assert.ok(secure, JSON.stringify([...byPath.keys()]));
  assert.deepEqual(secure.connection, { type: 'network', host: '127.0.0.1', port: 6311, protocol: 'ipps', resourcePath: '/ipp/print' });
  assert.equal(secure.content, 'pdf');
  const box = byPath.get(`tcp_127-0-0-1_${quietPort}`);
  assert.ok(box, JSON.stringify([...byPath.keys()]));
  assert.equal(box.content, 'raw', 'a raw-socket printer that does not answer ~HS is raw');
});

test('a discovered IPP printer is found by its URI, as a manual one at the same address would be', async () => {
  const byUri = await d.api('GET', `/printers/${encodeURIComponent('ipp://127.0.0.1:6310/ipp/print')}`);
  assert.equal(byUri.status, 200, JSON.stringify(byUri.body));
  assert.equal(byUri.body.result.content.path, 'ipp_127-0-0-1_6310');
  assert.equal(byUri.body.result.content.discovered, true);
  const secure = await d.api('GET', `/printers/${encodeURIComponent('ipps://127.0.0.1:6311/ipp/print')}`);
  assert.equal(secure.body.result.content.path, 'ipp_127-0-0-1_6311');
});

/** The SRV record the device answers for its own `type` service. */
async function ownService(deviceId: string, type: string): Promise<{ port: number; target: string }> {
  const mdns = multicastDns({ loopback: true });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer for ${type}.local`)), 3000);
      mdns.on('response', (packet) => {
        const record = packet.answers.find((r) => r.type === 'SRV' && r.name === `printproxy-${deviceId}.${type}.local`);
        if (!record) return;
        clearTimeout(timer);
        resolve(record.data as { port: number; target: string });
      });
      mdns.query({ questions: [{ name: `${type}.local`, type: 'PTR' }] });
    });
  } finally {
    await new Promise<void>((r) => mdns.destroy(() => r()));
  }
}

test('the device advertises itself as printproxy-<device_id>.local with _http._tcp and _https._tcp', async () => {
  const deviceId = (await d.api('GET', '/status')).body.result.content.deviceId;
  for (const [type, port] of [['_http._tcp', d.httpPort], ['_https._tcp', d.httpsPort]] as const) {
    const { port: advertised, target } = await ownService(deviceId, type);
    assert.deepEqual({ advertised, target }, { advertised: port, target: `printproxy-${deviceId}.local` }, type);
  }
});
