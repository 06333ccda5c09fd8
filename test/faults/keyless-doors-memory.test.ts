// Issue 26: the keyless doors hold no more than one request's worth of client bytes. Eight 60 MB IPP documents sent
// with last-document false, one after the other (each kept for Close-Job), and six 40 MiB raw-port connections at once,
// used to grow the daemon by 475 and 239 MiB; now what the memory budget cannot hold is refused (server-error-busy, the
// raw connection closed) and the daemon's peak RSS stays under 256 MiB.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { IppSession } from '../../src/ipp/ipp-session';
import { IPP_OP as OP } from '../../src/ipp/ipp-constants';
import { TAG } from '../../src/ipp/ipp-wire';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { freePort } from '../fixtures/ipp-everywhere';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';

const LIMIT_MIB = 256;
let d: DaemonHandle;
const emulator = new ZplPrinterEmulator();
let printer: { path: string; id: string };
let rawPort: number;

/** Peak resident set of the daemon, in MiB (VmHWM). */
function peakMiB(): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${d.proc.pid}/status`, 'utf8'))![1]) / 1024;
}

before(async () => {
  d = await startDaemon();
  emulator.discard = true;
  const port = await emulator.start();
  printer = (await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } })).body.result.content;
  rawPort = await freePort();
  const shared = await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: true, rawPort } } });
  assert.equal(shared.status, 200, JSON.stringify(shared.body));
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

test('eight 60 MB IPP documents kept for Close-Job, one after the other: one is kept, the others are server-error-busy, RSS stays under 256 MiB', async () => {
  const s = new IppSession({ uri: `ipp://127.0.0.1:${d.ippPort()}/ipp/print/${printer.id}`, timeoutMs: 60_000, busyWaitMs: 0 });
  const who = { tag: TAG.name, name: 'requesting-user-name', values: ['mallory'] };
  const document = Buffer.concat([Buffer.from('^XA^FO20,20^FDbig^FS^FX'), Buffer.alloc(60 * 1000 * 1000, 0x2e), Buffer.from('^XZ')]);
  const outcomes: string[] = [];
  const kept: number[] = [];
  for (let i = 0; i < 8; i += 1) {
    const created = await s.call(OP.createJob, [who]);
    const jobId = created.job.get('job-id')![0] as number;
    const attributes = [{ tag: TAG.integer, name: 'job-id', values: [jobId] }, who, { tag: TAG.boolean, name: 'last-document', values: [false] }, { tag: TAG.mimeMediaType, name: 'document-format', values: ['application/vnd.zebra-zpl'] }];
    try {
      await s.call(OP.sendDocument, attributes, [], document);
      outcomes.push('kept');
      kept.push(jobId);
    } catch (err) {
      outcomes.push(/server-error-busy/.test((err as Error).message) ? 'busy' : (err as Error).message);
    }
  }
  const peak = peakMiB();
  console.log(`IPP 8 x 60 MB kept for Close-Job: ${outcomes.join(', ')}; peak RSS ${peak.toFixed(1)} MiB`);
  assert.deepEqual(outcomes, ['kept', 'busy', 'busy', 'busy', 'busy', 'busy', 'busy', 'busy']);
  assert.ok(peak < LIMIT_MIB, `peak RSS ${peak.toFixed(1)} MiB`);
  for (const jobId of kept) await s.call(OP.closeJob, [{ tag: TAG.integer, name: 'job-id', values: [jobId] }, who]);
  await until('the kept document printed', () => emulator.bytesReceived >= document.length, 60_000);
});

test('six 40 MiB raw-port connections at once: what the budget holds prints, the others are closed, RSS stays under 256 MiB', async () => {
  const size = 40 * 1024 * 1024;
  const before = emulator.bytesReceived;
  const piece = Buffer.alloc(1024 * 1024, 0x2e);
  const results = await Promise.all(Array.from({ length: 6 }, (_, i) => new Promise<'sent' | 'closed'>((resolve) => {
    // from six addresses, so the per-address count is not what stops them
    const socket = net.connect({ port: rawPort, host: '127.0.0.1', localAddress: `127.0.0.${10 + i}` });
    let closed = false;
    socket.on('error', () => (closed = true));
    socket.on('close', () => resolve(closed ? 'closed' : 'sent'));
    socket.resume();
    socket.on('connect', async () => {
      socket.write('^XA^FDraw^FS^FX');
      for (let sent = 0; sent < size && !closed && !socket.destroyed; sent += piece.length) {
        if (!socket.write(piece)) await new Promise((ok) => (socket.once('drain', ok), socket.once('close', ok)));
      }
      socket.end('^XZ');
    });
  })));
  const sent = results.filter((r) => r === 'sent').length;
  const job = size + '^XA^FDraw^FS^FX^XZ'.length;
  await until('what was taken printed', () => emulator.bytesReceived - before >= job * sent, 60_000);
  const peak = peakMiB();
  console.log(`raw port 6 x 40 MiB at once: ${results.join(', ')}; peak RSS ${peak.toFixed(1)} MiB`);
  assert.ok(sent >= 1, 'at least one printed');
  assert.ok(sent < 6, 'the budget closed some');
  await until('every taken job ended', async () => ((await d.api('GET', '/jobs')).body.result.content as Array<{ state: string }>).every((j) => j.state === 'completed'));
  // besides the jobs, only the daemon's own status queries (a few bytes) reached the printer
  assert.ok(emulator.bytesReceived - before < job * sent + 4096, `${emulator.bytesReceived - before} bytes reached the printer: the closed connections printed nothing`);
  assert.ok(peak < LIMIT_MIB, `peak RSS ${peak.toFixed(1)} MiB`);
});
