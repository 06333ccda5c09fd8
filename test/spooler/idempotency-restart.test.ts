// Idempotency keys outlive a restart: the daemon stopped and started on the same data dir replays a key's jobs, never prints twice.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startDaemon, tempDataDir, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';

const LABEL = '^XA^FO50,50^A0N,40,40^FDHello^FS^XZ';
const emulators: ZplPrinterEmulator[] = [];
after(() => Promise.all(emulators.map((e) => e.stop())));

const FAST_TIMEOUTS = { PRINTPROXY_TCP_CONNECT_TIMEOUT_MS: '1000', PRINTPROXY_TCP_IDLE_TIMEOUT_MS: '1500', PRINTPROXY_TCP_QUERY_TIMEOUT_MS: '300' };
// a daemon process each time: one process stopping and starting uWS twice is not what a restart is
const start = (dataDir: string) => startDaemon({ dataDir, env: FAST_TIMEOUTS });

/** A daemon on a fresh data dir with one ZPL emulator added as a printer. */
async function daemonWithPrinter(): Promise<{ d: DaemonHandle; dataDir: string; emulator: ZplPrinterEmulator; path: string }> {
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  emulators.push(emulator);
  const dataDir = tempDataDir();
  const d = await start(dataDir);
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl', tags: [] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { d, dataDir, emulator, path: res.body.result.content.path };
}

test('a wait:true print retried with its key after a restart answers the same job, completed, and prints once', async () => {
  const { d, dataDir, emulator, path } = await daemonWithPrinter();
  const first = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' }, headers: { 'Idempotency-Key': 'restart-wait-1' } });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.result.content.state, 'completed');
  await d.stop();
  const again = await start(dataDir);
  try {
    const retry = await again.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' }, headers: { 'Idempotency-Key': 'restart-wait-1' } });
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.body.result.message, 'Existing job returned.');
    assert.equal(retry.body.result.content.jobId, first.body.result.content.jobId);
    assert.equal(retry.body.result.content.state, 'completed');
    assert.equal(emulator.jobs().length, 1, 'one label');
    const job = await again.api('GET', `/jobs/${first.body.result.content.jobId}`);
    assert.equal(job.body.result.content.state, 'completed', 'the job record is back too');
  } finally {
    await again.stop();
  }
});

test('a wait:false job whose spool entry is gone (it completed) is replayed by its key after a restart', async () => {
  const { d, dataDir, emulator, path } = await daemonWithPrinter();
  const first = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', wait: false, idempotencyKey: 'restart-spooled-1' } });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const jobId = first.body.result.content.jobId as string;
  await until('the job completed', async () => (await d.api('GET', `/jobs/${jobId}`)).body.result.content.state === 'completed');
  await d.stop();
  const again = await start(dataDir);
  try {
    const retry = await again.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', wait: false }, headers: { 'Idempotency-Key': 'restart-spooled-1' } });
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.body.result.content.jobId, jobId);
    assert.equal(retry.body.result.content.state, 'completed');
    assert.equal(emulator.jobs().length, 1, 'one label');
  } finally {
    await again.stop();
  }
});
