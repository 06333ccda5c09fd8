// Webhook filters: type names and `*` globs, printer paths per event type, events about no printer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeviceEvent, EventType } from '../../src/events/event-bus';
import { patternMatchingNothing, printerOf, typeMatches, wants } from '../../src/events/event-filter';

const ev = (type: EventType, data: unknown): DeviceEvent => ({ id: 1, type, time: '', data });

test('a type matches itself; a `*` suffix matches the prefix before it', () => {
  assert.ok(typeMatches('job.state', 'job.state'));
  assert.ok(!typeMatches('job.state', 'job.printed'));
  assert.ok(typeMatches('job.*', 'job.printed'));
  assert.ok(!typeMatches('job.*', 'printer.status'));
  assert.ok(typeMatches('*', 'device.settings'));
});

test('a pattern that matches no event type is named', () => {
  assert.equal(patternMatchingNothing(['job.*', 'printer.status', '*']), undefined);
  assert.equal(patternMatchingNothing(['job.*', 'jobs.*']), 'jobs.*');
  assert.equal(patternMatchingNothing(['printer.state']), 'printer.state');
});

test('the printer of an event: job.state printer, job.printed printerPath, printer.* path, none for device.settings', () => {
  assert.equal(printerOf(ev('job.state', { jobId: 'j', printer: 'usb_1' })), 'usb_1');
  assert.equal(printerOf(ev('job.printed', { jobId: 'j', printerPath: 'tcp_2' })), 'tcp_2');
  for (const type of ['printer.status', 'printer.added', 'printer.updated', 'printer.removed'] as const) assert.equal(printerOf(ev(type, { path: 'p' })), 'p');
  assert.equal(printerOf(ev('device.settings', { changed: ['alias'] })), null);
});

test('types and printers filters combine; an event about no printer passes a printers filter', () => {
  const filter = { types: ['job.*', 'device.settings'], printers: ['a'] };
  assert.ok(wants(filter, ev('job.state', { printer: 'a' })));
  assert.ok(!wants(filter, ev('job.state', { printer: 'b' })));
  assert.ok(!wants(filter, ev('printer.status', { path: 'a' })));
  assert.ok(wants(filter, ev('device.settings', { changed: [] })));
  assert.ok(wants({ types: null, printers: null }, ev('printer.removed', { path: 'z' })));
});
