// The event ring: what `since` can replay, and when it cannot (a reset).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../src/events/event-bus';
import { EventRing } from '../../src/events/event-ring';
import { silentLogger } from '../../src/log';

test('keeps the last events in order with their JSON, replays after an id, and says null once a gap cannot be filled', () => {
  const bus = new EventBus(silentLogger);
  const ring = new EventRing(bus, 5);
  assert.deepEqual(ring.after(0), []);
  for (let i = 0; i < 8; i += 1) bus.emit('device.settings', { changed: [`f${i}`] });
  assert.equal(ring.lastId, 8);
  assert.deepEqual(ring.after(5)!.map((e) => e.event.id), [6, 7, 8]);
  assert.deepEqual(ring.after(3)!.map((e) => e.event.id), [4, 5, 6, 7, 8], 'the oldest retained follows id 3');
  assert.equal(ring.after(2), null, 'event 3 is gone');
  assert.deepEqual(ring.after(8), []);
  assert.equal(ring.after(9), null, 'an id from the future (another run) cannot be resumed');
  assert.deepEqual(JSON.parse(ring.after(7)![0].json), ring.after(7)![0].event);
});
