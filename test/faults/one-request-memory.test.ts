// One request cannot push the daemon's memory up: 256 KiB of ZPL with copies 9999 streams 2.6 GB to the printer
// while the daemon's peak RSS stays under 256 MiB (it used to build one 2.5 GB buffer and be OOM-killed, then replay
// the spooled job at every restart). The daemon runs in a memory cgroup, so a regression kills it, not the machine.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';

const LIMIT = 256 * 1024 * 1024;
const CGROUP = join('/sys/fs/cgroup/memory', `printproxyd-test-${process.pid}`);

let d: DaemonHandle;
let emulator: ZplPrinterEmulator;
let path: string;

/** Peak resident set of a process, in bytes (VmHWM). */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(kb, 'VmHWM is readable');
  return Number(kb[1]) * 1024;
}

before(async () => {
  d = await startDaemon();
  // a cgroup v1 memory controller caps the daemon at twice the bound: a daemon that holds the copies dies here
  mkdirSync(CGROUP);
  writeFileSync(join(CGROUP, 'memory.limit_in_bytes'), String(2 * LIMIT));
  writeFileSync(join(CGROUP, 'cgroup.procs'), String(d.proc.pid));
  emulator = new ZplPrinterEmulator();
  emulator.discard = true;
  const port = await emulator.start();
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  path = res.body.result.content.path;
});
after(async () => {
  await d.stop();
  await emulator.stop();
  rmdirSync(CGROUP);
});

test('256 KiB of ZPL with copies 9999 streams every copy to the printer with the daemon under 256 MiB of RSS', async () => {
  const label = `^XA^FO10,10^FD${'x'.repeat(256 * 1024 - 20)}^FS^XZ`;
  assert.equal(label.length, 256 * 1024);
  const queued = await d.api('POST', `/print/${path}`, { body: { content: label, contentType: 'zpl', wait: false, options: { copies: 9999 } } });
  assert.equal(queued.status, 201, JSON.stringify(queued.body));
  const jobId = queued.body.result.content.jobId;
  await until('the job ends', async () => ['completed', 'failed'].includes((await d.api('GET', `/jobs/${jobId}`)).body.result.content.state), 300_000);
  const job = (await d.api('GET', `/jobs/${jobId}`)).body.result.content;
  assert.equal(job.state, 'completed', job.error);
  assert.equal(emulator.bytesReceived >= label.length * 9999, true, `${emulator.bytesReceived} bytes reached the printer`);
  const peak = peakRss(d.proc.pid!);
  assert.ok(peak < LIMIT, `peak RSS ${(peak / 1048576).toFixed(1)} MiB`);
});

test('the largest body the limit allows, as base64 JSON (wait:false, spooled) and as octet-stream, keeps the daemon under 256 MiB of RSS', async () => {
  const limit = 64 * 1024 * 1024;
  // base64 of 47.9 MiB: the JSON body is just under the 64 MiB default limit
  const raw = Buffer.alloc(Math.floor(((limit - 200) * 3) / 4), 0x41);
  const json = await d.api('POST', `/print/${path}`, { body: { content: raw.toString('base64'), contentType: 'raw_base64', wait: false } });
  assert.equal(json.status, 201, JSON.stringify(json.body).slice(0, 300));
  const octets = await d.api('POST', `/print/${path}`, { raw: Buffer.alloc(limit - 1024, 0x42), headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(octets.status, 200, JSON.stringify(octets.body).slice(0, 300));
  await until('the spooled job ends', async () => (await d.api('GET', `/jobs/${json.body.result.content.jobId}`)).body.result.content.state === 'completed', 120_000);
  const peak = peakRss(d.proc.pid!);
  assert.ok(peak < LIMIT, `peak RSS ${(peak / 1048576).toFixed(1)} MiB`);
});

test('8 concurrent 60 MB bodies: the device takes what fits in one body limit at a time, answers the others 503 with Retry-After, and stays under 256 MiB', async () => {
  const body = Buffer.alloc(60 * 1000 * 1000, 0x43);
  const answers = await Promise.all(Array.from({ length: 8 }, () => d.api('POST', `/print/${path}`, { raw: body, headers: { 'content-type': 'application/octet-stream' } })));
  const statuses = answers.map((a) => a.status);
  assert.ok(statuses.every((s) => s === 200 || s === 503), statuses.join());
  assert.ok(statuses.includes(200), 'at least one was printed');
  for (const busy of answers.filter((a) => a.status === 503)) {
    assert.equal(busy.body.result.message, 'Device is busy');
    assert.equal(busy.headers['retry-after'], '2');
  }
  const peak = peakRss(d.proc.pid!);
  assert.ok(peak < LIMIT, `peak RSS ${(peak / 1048576).toFixed(1)} MiB`);
});
