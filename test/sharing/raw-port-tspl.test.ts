// A raw port of a TSPL printer: what a client sends arrives at the printer unmodified as one job, and `~HS` (ZPL's
// host query) is not answered or taken out of a TSPL stream.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { freePort } from '../fixtures/ipp-everywhere';
import { TsplPrinterEmulator } from '../fixtures/tspl-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';

const TSPL_JOB = 'SIZE 2,1\r\nGAP 2 mm,0 mm\r\nCLS\r\nTEXT 10,10,"3",0,1,1,"~HS raw"\r\nPRINT 1,1\r\n';
let d: InProcessDaemon;
const emulator = new TsplPrinterEmulator();
let rawPort: number;

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() });
  const port = await emulator.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'tspl' } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  rawPort = await freePort();
  const shared = await d.api('PATCH', `/printers/${added.body.result.content.path}`, { body: { share: { ipp: false, rawPort } } });
  assert.deepEqual(shared.body.result.content.share, { ipp: false, rawPort });
  await until('the raw port listens', () => new Promise((resolve) => net.connect(rawPort, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).on('error', () => resolve(false))));
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

test('a TSPL job sent to the raw port prints once, byte for byte, as one job; nothing is answered back', async () => {
  const replies = await new Promise<string>((resolve, reject) => {
    let got = '';
    const socket = net.connect(rawPort, '127.0.0.1', () => socket.end(TSPL_JOB));
    socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
  assert.equal(replies, '');
  await emulator.waitForJobs(1, 10_000);
  assert.deepEqual(emulator.jobs(), [Buffer.from(TSPL_JOB, 'latin1')]);
  const jobs = (await d.api('GET', '/jobs')).body.result.content.filter((j: { title: string }) => j.title === `Raw port ${rawPort}`);
  assert.equal(jobs.length, 1);
});
