// Webhooks across restarts: the list and its masked secrets stay, and pending deliveries survive a SIGKILL with their delivery ids.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { signatureValid, WebhookReceiver } from '../fixtures/webhook-receiver';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { FAST_WEBHOOKS } from './webhook-env';

const daemons: DaemonHandle[] = [];
const receiver = new WebhookReceiver();

after(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  await receiver.stop();
});

async function start(dataDir?: string): Promise<DaemonHandle> {
  const d = await startDaemon({ env: FAST_WEBHOOKS, ...(dataDir ? { dataDir } : {}) });
  daemons.push(d);
  return d;
}

test('pending deliveries survive a SIGKILL (receiver down) and arrive after the restart, in order, with their first delivery ids', async () => {
  await receiver.start();
  await receiver.stop();
  const first = await start();
  const created = await first.api('POST', '/webhooks', { body: { url: receiver.url, types: ['device.settings'] } });
  assert.equal(created.status, 201);
  const { id, secret } = created.body.result.content;
  for (const alias of ['one', 'two', 'three']) assert.equal((await first.api('PUT', '/settings', { body: { alias } })).status, 200);
  await until('three deliveries pending (on disk)', async () => (await first.api('GET', `/webhooks/${id}`)).body.result.content.pending === 3);
  assert.equal(await first.stop('SIGKILL'), null);

  const second = await start(first.dataDir);
  const after = (await second.api('GET', `/webhooks/${id}`)).body.result.content;
  assert.equal(after.secret, '********');
  assert.equal(after.url, receiver.url);
  assert.equal(after.pending, 3);
  await receiver.start();
  assert.equal((await second.api('PUT', '/settings', { body: { alias: 'four' } })).status, 200);
  await until('all four arrived', () => receiver.received.length >= 4);

  const ids = receiver.received.map((x) => x.deliveryId);
  assert.equal(new Set(ids).size, 4, `each delivery once: ${ids.join(', ')}`);
  const boots = ids.map((deliveryId) => deliveryId.split('.')[0]);
  assert.equal(new Set(boots.slice(0, 3)).size, 1, 'the three kept the first run\'s boot id');
  assert.notEqual(boots[3], boots[0], 'the new event carries the new boot id');
  const eventIds = receiver.received.slice(0, 3).map((x) => x.body.id);
  assert.deepEqual(eventIds, [...eventIds].sort((a, b) => a - b), 'in id order');
  for (const x of receiver.received) {
    assert.equal(x.deliveryId, `${x.deliveryId.split('.')[0]}.${x.body.id}`);
    assert.ok(signatureValid(secret, x.raw, x.signature));
  }
  await until('nothing pending', async () => (await second.api('GET', `/webhooks/${id}`)).body.result.content.pending === 0);

  // a clean stop and start: nothing is sent again
  assert.equal(await second.stop(), 0);
  const third = await start(first.dataDir);
  assert.equal((await third.api('GET', `/webhooks/${id}`)).body.result.content.pending, 0);
  assert.equal((await third.api('POST', `/webhooks/${id}/test`)).body.result.content.delivered, true);
  assert.equal(receiver.received.length, 5);
  assert.equal(receiver.received[4].event, 'ping');
});
