// What the render pool and its workers move rather than copy through postMessage (src/render/transfer-list.ts): a small
// Buffer, a slice of Node's shared pool, is copied (Node 21 and later refuse to move it: a preview's small PNG failed
// with "Cannot transfer object of unsupported type" on Node 24), while bytes that are all of their buffer are moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { transferListOf } from '../../src/render/transfer-list';

/** Posts `bytes` with `transferListOf(bytes)` over a fresh channel; resolves with what arrived. */
async function roundTrip(bytes: Uint8Array): Promise<Uint8Array> {
  const { port1, port2 } = new MessageChannel();
  try {
    const arrived = once(port2, 'message');
    port1.postMessage(bytes, transferListOf(bytes));
    const [received] = (await arrived) as [Uint8Array];
    return received;
  } finally {
    port1.close();
    port2.close();
  }
}

test('a small Buffer (a slice of the shared Buffer pool) is copied: it arrives, and the sender keeps its bytes', async () => {
  const bytes = Buffer.from('a small PNG');
  assert.ok(bytes.byteLength < bytes.buffer.byteLength, 'Buffer.from of a short string is a slice of the pool');
  assert.deepEqual(transferListOf(bytes), []);
  assert.deepEqual(Buffer.from(await roundTrip(bytes)).toString(), 'a small PNG');
  assert.equal(bytes.toString(), 'a small PNG');
});

test('bytes that are all of their ArrayBuffer are moved: they arrive, and the sender\'s view is detached', async () => {
  const bytes = new Uint8Array([1, 2, 3]);
  assert.deepEqual(transferListOf(bytes), [bytes.buffer]);
  assert.deepEqual([...(await roundTrip(bytes))], [1, 2, 3]);
  assert.equal(bytes.byteLength, 0);
});

test('a view into part of a larger buffer is copied, leaving the rest of that buffer alone', async () => {
  const whole = new Uint8Array([9, 8, 7, 6, 5]);
  const part = whole.subarray(1, 3);
  assert.deepEqual(transferListOf(part), []);
  assert.deepEqual([...(await roundTrip(part))], [8, 7]);
  assert.deepEqual([...whole], [9, 8, 7, 6, 5]);
});
