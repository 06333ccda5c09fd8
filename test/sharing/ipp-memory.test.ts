// IPP documents count in the device's one memory budget (issue 26): a document sent with last-document false stays
// counted until Close-Job, cancel or time-out, so clients cannot pile up documents in memory; over the budget the answer
// is server-error-busy, and the same budget refuses a large HTTP upload meanwhile. IPP requests in progress are limited
// per source address: the one too many is answered 503 at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { IppSession } from '../../src/ipp/ipp-session';
import { IPP_OP as OP } from '../../src/ipp/ipp-constants';
import { encodeRequest, GROUP, TAG } from '../../src/ipp/ipp-wire';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';
import { startWithZplEmulator } from './zpl-emulator-daemon';

const MiB = 1024 * 1024;
let d: InProcessDaemon;
const emulator = new ZplPrinterEmulator();
let printer: { path: string; id: string };

before(async () => {
  ({ d, printer } = await startWithZplEmulator(emulator));
  await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: true, rawPort: null } } });
  const set = await d.api('PUT', '/settings', { body: { maxBodyBytes: 4 * MiB } });
  assert.equal(set.status, 200, JSON.stringify(set.body));
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

const session = () => new IppSession({ uri: `ipp://127.0.0.1:${d.ippPort}/ipp/print/${printer.id}`, timeoutMs: 30_000, busyWaitMs: 0 });
const who = [{ tag: TAG.name, name: 'requesting-user-name', values: ['alice'] }];
const zpl = [{ tag: TAG.mimeMediaType, name: 'document-format', values: ['application/vnd.zebra-zpl'] }];

/** A ZPL label of about `bytes` bytes whose text names it. */
function label(name: string, bytes: number): Buffer {
  const head = `^XA^FO20,20^FD${name}^FS^FX`;
  return Buffer.concat([Buffer.from(head), Buffer.alloc(bytes - head.length - 3, 0x2e), Buffer.from('^XZ')]);
}

async function createJob(s: IppSession): Promise<number> {
  const answer = await s.call(OP.createJob, [...who, { tag: TAG.name, name: 'job-name', values: ['kept'] }]);
  return answer.job.get('job-id')?.[0] as number;
}

const jobId = (id: number) => ({ tag: TAG.integer, name: 'job-id', values: [id] });
const last = (value: boolean) => ({ tag: TAG.boolean, name: 'last-document', values: [value] });
const sendDocument = (s: IppSession, id: number, data: Buffer, isLast: boolean) => s.call(OP.sendDocument, [jobId(id), ...who, last(isLast), ...zpl], [], data);
const printedNames = () => emulator.jobs().map((j) => /\^FD([^^]*)\^FS/.exec(j.toString('latin1'))?.[1]);

test('a document kept for Close-Job holds its bytes in the budget: a second one is server-error-busy, an HTTP upload 503, until Close-Job', async () => {
  const s = session();
  const a = await createJob(s);
  await sendDocument(s, a, label('kept-a', 3.5 * MiB), false);

  const b = await createJob(s);
  // refused: whether the body itself does not fit (read and dropped) or keeping it for Close-Job would not
  await assert.rejects(sendDocument(s, b, label('kept-b', 3 * MiB), false), /server-error-busy/);
  await assert.rejects(sendDocument(s, b, label('kept-b', 0.9 * MiB), false), /server-error-busy/);
  // an IPP body over 64 KiB counts while it is read, even when it is not kept
  await assert.rejects(s.call(OP.printJob, [...who, ...zpl], [], label('print-job', 0.9 * MiB)), /server-error-busy/);
  const upload = await d.api('POST', `/print/${printer.path}`, { raw: label('http', 3 * MiB), headers: { 'Content-Type': 'application/octet-stream' } });
  assert.equal(upload.status, 503, JSON.stringify(upload.body));

  await s.call(OP.closeJob, [jobId(a), ...who]);
  await until('the first document printed', () => printedNames().includes('kept-a'));
  await sendDocument(s, b, label('kept-b', 3 * MiB), true);
  await until('the second printed once the first let go of the budget', () => printedNames().includes('kept-b'));
});

test('Cancel-Job gives a kept document\'s bytes back', async () => {
  const s = session();
  const c = await createJob(s);
  await sendDocument(s, c, label('canceled', 3 * MiB), false);
  await s.call(OP.cancelJob, [jobId(c), ...who]);
  const e = await createJob(s);
  await sendDocument(s, e, label('after-cancel', 3 * MiB), false);
  await s.call(OP.closeJob, [jobId(e), ...who]);
  await until('the next document printed', () => printedNames().includes('after-cancel'));
  assert.ok(!printedNames().includes('canceled'));
});

/** A whole Get-Printer-Attributes request on a fresh connection from `localAddress`: the HTTP status it was answered with. */
function getPrinterAttributes(localAddress: string): Promise<number> {
  const uri = `ipp://127.0.0.1:${d.ippPort}/ipp/print/${printer.id}`;
  const body = encodeRequest(OP.getPrinterAttributes, 1, [{ tag: GROUP.operation, attributes: [{ tag: TAG.charset, name: 'attributes-charset', values: ['utf-8'] }, { tag: TAG.naturalLanguage, name: 'attributes-natural-language', values: ['en'] }, { tag: TAG.uri, name: 'printer-uri', values: [uri] }] }]);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: d.ippPort!, localAddress, method: 'POST', path: `/ipp/print/${printer.id}`, agent: false, headers: { 'Content-Type': 'application/ipp', 'Content-Length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('IPP requests in progress from one address are limited: the one too many is answered 503 at once, another address still goes', async () => {
  const slow: net.Socket[] = [];
  try {
    // requests whose bodies never finish, each holding a place until the test ends
    for (let i = 0; i < 16; i += 1) {
      const socket = net.connect(d.ippPort!, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`POST /ipp/print/${printer.id} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/ipp\r\nContent-Length: 1000\r\n\r\n\x02\x00`);
      slow.push(socket);
    }
    await until('a whole request from the same address is refused 503', async () => (await getPrinterAttributes('127.0.0.1')) === 503);
    assert.equal(await getPrinterAttributes('127.0.0.2'), 200, 'another address is answered');
  } finally {
    for (const socket of slow) socket.destroy();
  }
  await until('places are given back', async () => (await getPrinterAttributes('127.0.0.1')) === 200);
});
