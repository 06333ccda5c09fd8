// IPP jobs of shared printers are jobs of the spooler: GET /jobs and events show them, a not-ready label printer holds
// them (job pending, printer stopped with the pre-flight's reasons) until it is ready, and the API listener answers too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { IppSession } from '../../src/ipp/ipp-session';
import { IPP_OP as OP } from '../../src/ipp/ipp-constants';
import { TAG } from '../../src/ipp/ipp-wire';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';
import { startWithZplEmulator } from './zpl-emulator-daemon';
import { decodeLabels } from '../render/zpl-label-decode';
import { readLabelBarcodes } from '../render/barcode-reader';
import { decodePng } from '../../src/render/png-decode';

let d: InProcessDaemon;
const emulator = new ZplPrinterEmulator();
let printer: { path: string; id: string };

before(async () => {
  ({ d, printer } = await startWithZplEmulator(emulator));
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

const session = (port: number | null, id = printer.id) => new IppSession({ uri: `ipp://127.0.0.1:${port}/ipp/print/${id}`, timeoutMs: 30_000, busyWaitMs: 0 });
const who = [{ tag: TAG.name, name: 'requesting-user-name', values: ['alice'] }];

async function printPdf(s: IppSession, name: string) {
  const attributes = [...who, { tag: TAG.name, name: 'job-name', values: [name] }, { tag: TAG.mimeMediaType, name: 'document-format', values: ['application/pdf'] }];
  return s.call(OP.printJob, attributes, [], await shippingLabelPdf());
}

const jobAttributes = (s: IppSession, id: number) => s.call(OP.getJobAttributes, [...who, { tag: TAG.integer, name: 'job-id', values: [id] }]);

test('a printer that is not shared answers client-error-not-found, on the IPP port and the API listener alike', async () => {
  for (const port of [d.ippPort, d.httpPort]) {
    await assert.rejects(session(port).call(OP.getPrinterAttributes, who), /client-error-not-found/);
  }
});

test('Print-Job on the API listener: a job in GET /jobs and on the event bus, whose label reaches the printer with its barcode readable', async () => {
  await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: true, rawPort: null } } });
  const seen: Array<{ jobId: string; state: string }> = [];
  const off = d.events.subscribe((event) => event.type === 'job.state' && seen.push(event.data as { jobId: string; state: string }));
  const before = emulator.jobs().length;
  const answer = await printPdf(session(d.httpPort), 'Order 7');
  const ippId = answer.job.get('job-id')?.[0] as number;
  assert.ok(ippId > 0);
  await until('the IPP job completed', async () => (await jobAttributes(session(d.httpPort), ippId)).job.get('job-state')?.[0] === 9, 30_000);
  off();
  const jobs = (await d.api('GET', '/jobs')).body.result.content as Array<{ jobId: string; title: string; source: string; contentType: string; state: string; printer: string }>;
  const job = jobs.find((j) => j.title === 'Order 7');
  assert.ok(job, 'the job is in GET /jobs');
  assert.deepEqual([job.source, job.contentType, job.state, job.printer], ['alice', 'application/pdf', 'completed', printer.path]);
  assert.deepEqual(seen.filter((e) => e.jobId === job.jobId).map((e) => e.state), ['queued', 'printing', 'completed']);
  const [label] = decodeLabels(emulator.jobs()[before].toString('latin1'));
  const found = (await readLabelBarcodes(label.bitmap, label.pw)).filter((r) => r.isValid).map((r) => r.text);
  assert.ok(found.includes('1Z999AA10123456784'), `barcodes read: ${found.join(', ')}`);
});

test('a label printer out of paper holds the IPP job: pending, printer stopped with media-empty-error; loaded, it prints', async () => {
  await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: true, rawPort: null } } });
  const s = session(d.ippPort);
  emulator.state.paperOut = true;
  const before = emulator.jobs().length;
  const answer = await printPdf(s, 'Held label');
  const ippId = answer.job.get('job-id')?.[0] as number;
  await until('the printer is stopped with media-empty-error', async () => {
    const attrs = (await s.call(OP.getPrinterAttributes, [...who, { tag: TAG.keyword, name: 'requested-attributes', values: ['printer-state', 'printer-state-reasons'] }])).printer;
    return attrs.get('printer-state')?.[0] === 5 && (attrs.get('printer-state-reasons') ?? []).includes('media-empty-error');
  }, 30_000);
  const held = (await jobAttributes(s, ippId)).job;
  assert.deepEqual([held.get('job-state')?.[0], held.get('job-state-reasons')], [3, ['printer-stopped']]);
  assert.equal(emulator.jobs().length, before, 'nothing printed while out of paper');
  emulator.state.paperOut = false;
  await until('the held job printed', async () => (await jobAttributes(s, ippId)).job.get('job-state')?.[0] === 9, 30_000);
  assert.equal(emulator.jobs().length, before + 1);
});

test('Create-Job then Cancel-Job before the document: canceled, and nothing reaches the printer', async () => {
  const s = session(d.ippPort);
  const before = emulator.jobs().length;
  const created = await s.call(OP.createJob, [...who, { tag: TAG.name, name: 'job-name', values: ['never sent'] }]);
  const ippId = created.job.get('job-id')?.[0] as number;
  assert.deepEqual(created.job.get('job-state-reasons'), ['job-incoming']);
  await s.call(OP.cancelJob, [...who, { tag: TAG.integer, name: 'job-id', values: [ippId] }]);
  assert.equal((await jobAttributes(s, ippId)).job.get('job-state')?.[0], 7);
  assert.equal(emulator.jobs().length, before);
});

test('printer-icons names a PNG the device serves, and printer-more-info its web address', async () => {
  await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: true, rawPort: null } } });
  const attrs = (await session(d.ippPort).call(OP.getPrinterAttributes, [...who, { tag: TAG.keyword, name: 'requested-attributes', values: ['printer-icons', 'printer-more-info'] }])).printer;
  const icon = String(attrs.get('printer-icons')?.[0]);
  assert.equal(icon, `http://127.0.0.1:${d.httpPort}/ipp/icon.png`);
  assert.equal(attrs.get('printer-more-info')?.[0], `http://127.0.0.1:${d.httpPort}/`);
  const res = await fetch(icon);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  const png = decodePng(new Uint8Array(await res.arrayBuffer()));
  assert.deepEqual([png.width, png.height], [128, 128]);
});
