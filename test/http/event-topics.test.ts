// Clients with equal filters share one topic; different filters do not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topicOf } from '../../src/http/event-topics';

test('equal filters (lists as sets) share a topic; different ones and null (everything) do not', () => {
  assert.equal(topicOf({ types: ['job.*', 'printer.status'], printers: null }), topicOf({ types: ['printer.status', 'job.*', 'job.*'], printers: null }));
  assert.notEqual(topicOf({ types: ['job.*'], printers: null }), topicOf({ types: null, printers: null }));
  assert.notEqual(topicOf({ types: null, printers: ['a'] }), topicOf({ types: null, printers: [] }));
  assert.notEqual(topicOf({ types: ['a'], printers: null }), topicOf({ types: null, printers: ['a'] }));
});
