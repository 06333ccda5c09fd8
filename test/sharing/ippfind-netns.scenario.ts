// Run by ippfind.test.ts inside a private network namespace: the daemon advertises a shared printer, CUPS's ippfind
// (through avahi) finds it as _ipp._tcp,_universal and _ipps._tcp,_print with the TXT keys of printer-sharing.md.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import multicastDns from 'multicast-dns';
import { AvahiBus } from '../fixtures/avahi-netns';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';

const avahi = new AvahiBus();
const emulator = new ZplPrinterEmulator();
let d: InProcessDaemon;
let printer: { path: string; id: string };

const KEYS = ['rp', 'ty', 'pdl', 'URF', 'UUID', 'adminurl', 'note', 'Color', 'Duplex', 'kind', 'txtvers', 'qtotal'];

/** ippfind's matches for `regtype` within `seconds`: one row per service, its port then each TXT key's value. */
function ippfind(regtype: string, seconds = 3): Promise<string[][]> {
  const fields = ['{service_port}', ...KEYS.map((k) => `{txt_${k}}`)];
  const args = ['-T', String(seconds), regtype, '-x', 'printf', `${fields.map(() => '%s').join('\t')}\n`, ...fields, ';'];
  return new Promise((resolve) => {
    execFile('ippfind', args, { env: avahi.env, timeout: 20_000 }, (_err, stdout) => resolve(stdout.split('\n').filter((l) => l.trim()).map((l) => l.split('\t'))));
  });
}

before(async () => {
  await avahi.start();
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, true, true);
  const port = await emulator.start();
  printer = (await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } })).body.result.content;
  await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: true, rawPort: null } } });
});
after(async () => {
  await d.stop();
  await emulator.stop();
  await avahi.stop();
});

const ours = (rows: string[][]) => rows.filter((r) => r[1] === `ipp/print/${printer.id}`);

test('ippfind _ipp._tcp,_universal finds the shared label printer on the IPP port with the TXT keys of printer-sharing.md', async () => {
  let found: string[][] = [];
  await until('ippfind finds it', async () => (found = ours(await ippfind('_ipp._tcp,_universal'))).length > 0, 30_000);
  const [port, rp, ty, pdl, urf, uuid, adminurl, note, color, duplex, kind, txtvers, qtotal] = found[0];
  assert.deepEqual({ port: Number(port), rp, kind, color, duplex, txtvers, qtotal }, { port: d.ippPort, rp: `ipp/print/${printer.id}`, kind: 'label', color: 'F', duplex: 'F', txtvers: '1', qtotal: '1' });
  assert.match(ty, /ZPL/);
  assert.deepEqual(pdl.split(','), ['application/pdf', 'image/pwg-raster', 'image/urf', 'image/jpeg', 'image/png', 'application/vnd.zebra-zpl', 'application/octet-stream']);
  assert.equal(urf, 'V1.4,CP1,W8,RS203');
  assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(adminurl, /^http:\/\/printproxy-[a-z0-9]{4}\.local:\d+\/$/);
  assert.notEqual(note, '{txt_note}', 'the note key is present');
});

test('ippfind _ipps._tcp,_print finds it on the HTTPS listener', async () => {
  let found: string[][] = [];
  await until('ippfind finds the ipps service', async () => (found = ours(await ippfind('_ipps._tcp,_print'))).length > 0, 30_000);
  assert.equal(Number(found[0][0]), d.httpsPort);
});

test('_printer._tcp is advertised on port 0 (no LPD)', async () => {
  const mdns = multicastDns({ loopback: true });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no _printer._tcp answer')), 5000);
      mdns.on('response', (packet) => {
        const srv = packet.answers.find((r) => r.type === 'SRV' && r.name.endsWith(`${printer.id}._printer._tcp.local`));
        if (!srv) return;
        clearTimeout(timer);
        resolve((srv.data as { port: number }).port);
      });
      mdns.query({ questions: [{ name: '_printer._tcp.local', type: 'PTR' }] });
    });
    assert.equal(port, 0);
  } finally {
    await new Promise<void>((r) => mdns.destroy(() => r()));
  }
});

test('sharing turned off: the printer is no longer found', async () => {
  await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: false, rawPort: null } } });
  await until('ippfind no longer finds it', async () => ours(await ippfind('_ipp._tcp,_universal', 2)).length === 0, 30_000);
});
