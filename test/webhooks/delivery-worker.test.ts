// One webhook's sender against a scripted receiver: id order with a blocking head, retries, the horizon, stopping mid-attempt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { silentLogger } from '../../src/log';
import type { LastDelivery } from '../../src/schemas/webhook';
import type { Deliver } from '../../src/webhooks/deliver';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker';
import { DEFAULT_OUTBOX_BOUNDS, Outbox } from '../../src/webhooks/outbox';
import type { WebhookPolicy } from '../../src/webhooks/retry-policy';
import type { WebhookEvent } from '../../src/webhooks/webhook-event';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

const POLICY: WebhookPolicy = { retryBaseMs: 1, retryCapMs: 4, retryHorizonMs: 60_000, timeoutMs: 1000 };
const event = (id: number): WebhookEvent => ({ id, type: 'device.settings', time: new Date(0).toISOString(), data: { id } });

/** A scripted receiver: answers each attempt with `answer(deliveryId, attempt)`: a status, or a promise of one. */
function scripted(answer: (deliveryId: string, attempt: number) => number | Promise<number>) {
  const attempts: string[] = [];
  const deliver: Deliver = async (_target, deliveryId, ev, signal) => {
    attempts.push(deliveryId);
    const n = attempts.filter((id) => id === deliveryId).length;
    let onAbort = () => undefined as void;
    const aborted = new Promise<null>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve(null))));
    const status = await Promise.race([answer(deliveryId, n), aborted]);
    signal.removeEventListener('abort', onAbort);
    const ok = status !== null && status >= 200 && status < 300;
    const outcome: LastDelivery = { time: '', deliveryId, eventType: ev.type, status, error: ok ? null : `HTTP ${status}` };
    return outcome;
  };
  return { attempts, deliver };
}

async function worker(deliver: Deliver, clock = { now: 0 }, policy = POLICY) {
  const outbox = await Outbox.open(join(tempDir('worker'), 'w.outbox'), DEFAULT_OUTBOX_BOUNDS, silentLogger);
  const w = new DeliveryWorker({ target: { url: 'http://x', secret: 's' }, outbox, deliver, policy, now: () => clock.now, random: () => 0.5, logger: silentLogger });
  w.start();
  return w;
}

test('deliveries go out in the order queued; a failing head is retried and holds back the ones behind it', async () => {
  const r = scripted((id, attempt) => (id === 'b.1' && attempt <= 3 ? 500 : 200));
  const w = await worker(r.deliver);
  for (let i = 1; i <= 3; i += 1) await w.enqueue(`b.${i}`, event(i));
  await until('all three delivered', () => w.pending === 0 && r.attempts.length === 6);
  assert.deepEqual(r.attempts, ['b.1', 'b.1', 'b.1', 'b.1', 'b.2', 'b.3']);
  assert.equal(w.lastDelivery?.deliveryId, 'b.3');
  assert.equal(w.dropped, 0);
  await w.close();
});

test('past the retry horizon the head is dropped, counted, and the next one goes out', async () => {
  const clock = { now: 0 };
  const r = scripted((id) => (id === 'b.1' ? 503 : 200));
  const w = await worker(r.deliver, clock);
  await w.enqueue('b.1', event(1));
  clock.now = 1000;
  await w.enqueue('b.2', event(2));
  await until('b.1 tried twice', () => r.attempts.filter((id) => id === 'b.1').length >= 2);
  // b.1's horizon is reached, b.2's (queued 1 s later) not yet
  clock.now = POLICY.retryHorizonMs;
  await until('b.2 delivered', () => w.pending === 0);
  assert.equal(w.dropped, 1);
  assert.equal(r.attempts.at(-1), 'b.2');
  await w.close();
});

test('stopping during an attempt leaves the delivery pending in the outbox', async () => {
  let release: (status: number) => void = () => undefined;
  const r = scripted(() => new Promise<number>((resolve) => (release = resolve)));
  const w = await worker(r.deliver);
  await w.enqueue('b.1', event(1));
  await until('the attempt started', () => r.attempts.length === 1);
  await w.close();
  release(200);
  assert.equal(w.pending, 1);
});

test('a ping goes out beside the queue, even while its head is held, and becomes the last delivery', async () => {
  const r = scripted((id) => (id === 'b.1' ? 500 : 200));
  const w = await worker(r.deliver);
  await w.enqueue('b.1', event(1));
  await until('b.1 failing', () => w.lastDelivery?.status === 500);
  const outcome = await w.sendOnce('boot.ping-1', { id: 0, type: 'ping', time: '', data: {} });
  assert.equal(outcome.status, 200);
  assert.equal(w.pending, 1);
  await w.close();
});
