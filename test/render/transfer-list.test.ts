// What the render pool and its workers post (src/render/transfer-list.ts): bytes that are all of their buffer are moved;
// others (a small Buffer, a slice of Node's shared pool, which Node 21 and later refuse to move: a preview's small PNG
// failed with "Cannot transfer object of unsupported type" on Node 24) are copied, exactly those bytes, and the copy moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { movable } from '../../src/render/transfer-list';

/** Posts `movable(bytes)` over a fresh channel; resolves with what arrived. */
async function roundTrip(bytes: Uint8Array): Promise<Uint8Array> {
  const { port1, port2 } = new MessageChannel();
  try {
    const arrived = once(port2, 'message');
    const moving = movable(bytes);
    port1.postMessage(moving.bytes, moving.transfer);
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
  assert.notEqual(movable(bytes).transfer[0], bytes.buffer, 'the pool is not moved');
  assert.deepEqual(Buffer.from(await roundTrip(bytes)).toString(), 'a small PNG');
  assert.equal(bytes.toString(), 'a small PNG');
});

test('bytes that are all of their ArrayBuffer are moved: they arrive, and the sender\'s view is detached', async () => {
  const bytes = new Uint8Array([1, 2, 3]);
  assert.deepEqual(movable(bytes).transfer, [bytes.buffer]);
  assert.deepEqual([...(await roundTrip(bytes))], [1, 2, 3]);
  assert.equal(bytes.byteLength, 0);
});

test('a view into part of a larger buffer is copied, leaving the rest of that buffer alone', async () => {
  const whole = new Uint8Array([9, 8, 7, 6, 5]);
  const part = whole.subarray(1, 3);
  assert.deepEqual([...(await roundTrip(part))], [8, 7]);
  assert.deepEqual([...whole], [9, 8, 7, 6, 5]);
});

test('only the bytes of a view travel, not the buffer around them (postMessage of the view itself copies all of it)', async () => {
  const request = new Uint8Array(1024 * 1024);
  const document = request.subarray(512, 512 + 100);
  document.fill(7);
  const arrived = await roundTrip(document);
  assert.deepEqual([arrived.byteLength, arrived.buffer.byteLength], [100, 100]);
  assert.ok(arrived.every((b) => b === 7));
  // what posting the view itself would have done: the whole megabyte goes along
  const { port1, port2 } = new MessageChannel();
  const direct = once(port2, 'message');
  port1.postMessage(document);
  const [whole] = (await direct) as [Uint8Array];
  port1.close();
  port2.close();
  assert.equal(whole.buffer.byteLength, 1024 * 1024);
});
