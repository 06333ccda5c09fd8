// Raw ports (printer-sharing.md): nc-style clients send ZPL with and without a leading ~HS; the ~HS is answered with the
// real printer's status, the labels arrive once, and each connection is one job in GET /jobs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';
import { freePort } from '../fixtures/ipp-everywhere';

let d: InProcessDaemon;
const emulator = new ZplPrinterEmulator();
let path: string;
let rawPort: number;


/** Like `nc`: connects, runs `talk`, half-closes, and returns everything the port sent back. */
function nc(talk: (socket: net.Socket, replies: () => string) => Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = net.connect(rawPort, '127.0.0.1', () => {
      talk(socket, () => got).then(() => socket.end(), reject);
    });
    socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() });
  const port = await emulator.start();
  path = (await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } })).body.result.content.path;
  rawPort = await freePort();
  const shared = await d.api('PATCH', `/printers/${path}`, { body: { share: { ipp: false, rawPort } } });
  assert.deepEqual(shared.body.result.content.share, { ipp: false, rawPort });
  await until('the raw port listens', () => new Promise((resolve) => net.connect(rawPort, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).on('error', () => resolve(false))));
  await until('the probe connection ended', async () => emulator.jobs().length === 0 && (await d.api('GET', '/jobs')).body.result.content.length === 0);
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

const rawJobs = async () => ((await d.api('GET', '/jobs')).body.result.content as Array<{ title: string; state: string; printer: string }>).filter((j) => j.title === `Raw port ${rawPort}`);

test('~HS first: answered with the printer\'s own status, then the label prints once, as one job', async () => {
  emulator.state.paused = true;
  const label = '^XA^FO20,20^A0N,40,40^FDWith HS^FS^XZ';
  const queriesBefore = emulator.statusQueries;
  const replies = await nc(async (socket, got) => {
    socket.write('~HS\r\n');
    await until('the ~HS answer', () => got().split('\x03').length > 3);
    assert.equal(got(), emulator.hostStatusReply(), 'the emulator\'s own reply, paused flag included');
    emulator.state.paused = false;
    socket.write(label);
  });
  assert.match(replies, /^\x02030,0,1,/);
  assert.ok(emulator.statusQueries > queriesBefore, 'the query went to the printer');
  await until('the label arrived', () => emulator.jobs().some((j) => j.toString() === label));
  await until('one completed job', async () => (await rawJobs()).some((j) => j.state === 'completed'));
  assert.equal(emulator.jobs().filter((j) => j.toString().includes('With HS')).length, 1);
  assert.ok(emulator.jobs().every((j) => !j.toString().includes('~HS')), 'the query is not printed as part of the job');
});

test('plain ZPL without ~HS: two connections are two jobs, each label arriving once and unmodified', async () => {
  const before = (await rawJobs()).length;
  const labels = ['^XA^FO20,20^FDone^FS^XZ', '^XA^FO20,20^FDtwo^FS^XZ^XA^FO20,20^FDtwo-b^FS^XZ'];
  for (const label of labels) assert.equal(await nc(async (socket) => void socket.write(label)), '');
  await until('both jobs completed', async () => (await rawJobs()).filter((j) => j.state === 'completed').length === before + 2);
  for (const label of labels) assert.equal(emulator.jobs().filter((j) => j.toString() === label).length, 1, label);
  const jobs = await rawJobs();
  assert.equal(jobs.length, before + 2);
  assert.ok(jobs.every((j) => j.printer === path));
});

test('a status-only connection (~HQES, nothing else) is answered and makes no job', async () => {
  const before = (await rawJobs()).length;
  const replies = await nc(async (socket, got) => {
    socket.write('~HQES');
    await until('the ~HQES answer', () => got().includes('ERRORS'));
  });
  assert.equal(replies, emulator.hostQueryReply());
  assert.equal((await rawJobs()).length, before);
});
