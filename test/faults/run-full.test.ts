// A data partition that fills while the daemon works: a spooled job, webhook deliveries and reads go on; nothing ends the daemon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebhookReceiver } from '../fixtures/webhook-receiver';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { until, valueWithin } from '../helpers/until';
import { FAST_WEBHOOKS } from '../webhooks/webhook-env';
import { startOnTmpfs } from './tmpfs-daemon';

test('filled while a spooled job waits and a webhook listens: the job ends, the daemon answers, the warning comes and goes', async () => {
  const t = await startOnTmpfs(256, { env: FAST_WEBHOOKS });
  const printer = new ZplPrinterEmulator();
  const receiver = new WebhookReceiver();
  try {
    printer.state.paused = true;
    const port = await printer.start();
    await receiver.start();
    const added = await t.d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal((await t.d.api('POST', '/webhooks', { body: { url: receiver.url, types: ['job.state'] } })).status, 201);
    const spooled = await t.d.api('POST', `/print/${added.body.result.content.path}`, { body: { content: '^XA^FDheld^FS^XZ', contentType: 'zpl', wait: false } });
    assert.equal(spooled.status, 201, JSON.stringify(spooled.body));
    const jobId: string = spooled.body.result.content.jobId;

    t.fill();
    printer.state.paused = false;
    const ended = await valueWithin('the spooled job ends', 20_000, async () => {
      const job = (await t.d.api('GET', `/jobs/${jobId}`)).body.result.content;
      return job.state === 'completed' || job.state === 'failed' ? job : null;
    });
    assert.equal(ended.state, 'completed', JSON.stringify(ended));
    const status = await t.d.api('GET', '/status');
    assert.equal(status.status, 200);
    assert.ok(status.body.result.content.warnings.some((w: string) => /^storage is full/.test(w)), JSON.stringify(status.body.result.content.warnings));

    t.free();
    await until('the warning goes once space is back', async () => !(await t.d.api('GET', '/status')).body.result.content.warnings.some((w: string) => /^storage is/.test(w)));
    assert.equal(t.d.proc.exitCode, null, 'the daemon still runs');
  } finally {
    t.free();
    await t.d.stop();
    await printer.stop();
    await receiver.stop();
  }
});
