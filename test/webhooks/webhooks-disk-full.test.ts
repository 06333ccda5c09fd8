// A full data partition: webhook writes answer 507 and change nothing; events that cannot enter an outbox are counted as dropped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WebhookReceiver } from '../fixtures/webhook-receiver';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { listFiles, startOnTmpfs, type TmpfsDaemon } from '../faults/tmpfs-daemon';
import { until } from '../helpers/until';
import { FAST_WEBHOOKS } from './webhook-env';

let t: TmpfsDaemon;
let printer: ZplPrinterEmulator;
let printerPath = '';
const receiver = new WebhookReceiver();
let hookId = '';

before(async () => {
  t = await startOnTmpfs(256, { env: FAST_WEBHOOKS });
  printer = new ZplPrinterEmulator();
  const port = await printer.start();
  const added = await t.d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  printerPath = added.body.result.content.path;
  await receiver.start();
  const hook = await t.d.api('POST', '/webhooks', { body: { url: receiver.url, types: ['job.state'] } });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  hookId = hook.body.result.content.id;
});

after(async () => {
  t.free();
  await t.d.stop();
  await printer.stop();
  await receiver.stop();
});

/** What a client and the disk show of the webhooks. */
async function observe(): Promise<unknown> {
  const list = (await t.d.api('GET', '/webhooks')).body.result.content;
  return { list, file: readFileSync(t.path('webhooks/webhooks.json'), 'utf8'), files: listFiles(t.path('webhooks')) };
}

async function hook(): Promise<any> {
  return (await t.d.api('GET', `/webhooks/${hookId}`)).body.result.content;
}

test('with the data partition full, creating and deleting a webhook answer 507 and change nothing; events are dropped and counted', async () => {
  const before = await observe();
  t.fill();
  const created = await t.d.api('POST', '/webhooks', { body: { url: receiver.url } });
  assert.equal(created.status, 507, JSON.stringify(created.body));
  assert.equal(created.body.result.message, 'Device cannot store the change');
  assert.deepEqual(await observe(), before, 'after POST');
  const deleted = await t.d.api('DELETE', `/webhooks/${hookId}`);
  assert.equal(deleted.status, 507, JSON.stringify(deleted.body));
  assert.deepEqual(await observe(), before, 'after DELETE');

  const lost = await t.d.api('POST', `/print/${printerPath}`, { body: { content: '^XA^FDfull^FS^XZ', contentType: 'zpl' } });
  assert.equal(lost.status, 200, 'printing goes on');
  await until('its three job states counted as dropped', async () => (await hook()).dropped === 3);
  assert.equal((await hook()).pending, 0);

  t.free();
  const kept = await t.d.api('POST', `/print/${printerPath}`, { body: { content: '^XA^FDroom^FS^XZ', contentType: 'zpl' } });
  await until('the next job\'s states arrive', () => receiver.received.length === 3);
  assert.ok(receiver.received.every((x) => x.body.data.jobId === kept.body.result.content.jobId));
  assert.equal((await hook()).dropped, 3);
  assert.equal((await t.d.api('POST', '/webhooks', { body: { url: receiver.url } })).status, 201, 'writes work again');
});
