// Nothing printed twice or lost: 500 concurrent jobs over 5 printers, and 50 spooled jobs across a SIGKILL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDaemon, tempDataDir, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';

async function addEmulatedPrinter(d: DaemonHandle, emulator: ZplPrinterEmulator): Promise<string> {
  const port = await emulator.start();
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  assert.equal(res.status, 201);
  return res.body.result.content.path;
}

function label(n: number): string {
  return `^XA^FO20,20^FDjob-${n}^FS^XZ`;
}

test('500 concurrent jobs over 5 printers with random wait arrive exactly once, in per-printer submission order', async () => {
  const d = await startDaemon();
  const emulators = Array.from({ length: 5 }, () => new ZplPrinterEmulator());
  try {
    const paths = await Promise.all(emulators.map((e) => addEmulatedPrinter(d, e)));
    // a seeded generator keeps the run reproducible
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, n) => {
        const printer = Math.floor(random() * 5);
        const wait = random() < 0.5;
        return d.api('POST', `/print/${paths[printer]}`, { body: { content: label(n), contentType: 'zpl', wait } }).then((res) => ({ n, printer, wait, res }));
      }),
    );
    for (const a of answers) assert.equal(a.res.status, a.wait ? 200 : 201, JSON.stringify(a.res.body));
    const perPrinter = paths.map((_, i) => answers.filter((a) => a.printer === i));
    await Promise.all(emulators.map((e, i) => e.waitForFormats(perPrinter[i].length, 20_000)));
    // once every record is completed the device sends nothing more: a duplicate would already be at its printer
    await until('every job record is completed', async () => (await d.api('GET', '/jobs')).body.result.content.every((j: { state: string }) => j.state === 'completed'));
    for (const [i, emulator] of emulators.entries()) {
      // labels, not connections: jobs that follow back to back share one
      const printed = emulator.formats();
      // the spooler's sequence number (cupsJobId) is the order it accepted the jobs in
      const jobs = await Promise.all(perPrinter[i].map((a) => d.api('GET', `/jobs/${a.res.body.result.content.jobId}`).then((r) => ({ n: a.n, job: r.body.result.content }))));
      const accepted = jobs.sort((x, y) => Number(x.job.cupsJobId) - Number(y.job.cupsJobId)).map((x) => label(x.n));
      assert.equal(printed.length, accepted.length, `printer ${i}: every job exactly once`);
      assert.deepEqual(printed, accepted, `printer ${i}: in submission order`);
      assert.ok(jobs.every((x) => x.job.state === 'completed'));
    }
  } finally {
    await d.stop();
    await Promise.all(emulators.map((e) => e.stop()));
  }
});

test('SIGKILL with 50 wait:false jobs queued to a paused printer: after restart each is delivered exactly once', async () => {
  const dataDir = tempDataDir();
  const emulator = new ZplPrinterEmulator();
  const first = await startDaemon({ dataDir });
  const path = await addEmulatedPrinter(first, emulator);
  emulator.state.paused = true;
  for (let n = 0; n < 50; n += 1) {
    const res = await first.api('POST', `/print/${path}`, { body: { content: label(n), contentType: 'zpl', wait: false } });
    assert.equal(res.status, 201);
  }
  await first.stop('SIGKILL');
  assert.equal(emulator.formats().length, 0, 'nothing printed while paused');

  emulator.state.paused = false;
  const second = await startDaemon({ dataDir });
  try {
    await emulator.waitForFormats(50, 20_000);
    await until('the 50 recovered jobs are completed', async () => {
      const jobs = (await second.api('GET', '/jobs')).body.result.content as Array<{ state: string }>;
      return jobs.length === 50 && jobs.every((j) => j.state === 'completed');
    });
    assert.deepEqual(emulator.formats(), Array.from({ length: 50 }, (_, n) => label(n)));
  } finally {
    await second.stop();
    await emulator.stop();
  }
});
