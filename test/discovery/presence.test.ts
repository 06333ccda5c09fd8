// Periodic browsing forgets a printer only after it is missing from consecutive scans.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Presence } from '../../src/discovery/presence';

test('a printer missing from one scan stays; missing from two in a row it is gone, once', () => {
  const presence = new Presence(2);
  assert.deepEqual(presence.update(['a', 'b']), []);
  assert.deepEqual(presence.update(['a']), [], 'b missed once');
  assert.deepEqual(presence.update(['a', 'b']), [], 'b came back: its count starts again');
  assert.deepEqual(presence.update(['a']), []);
  assert.deepEqual(presence.update(['a']), ['b']);
  assert.deepEqual(presence.update(['a']), [], 'reported once');
  assert.deepEqual(presence.update([]), []);
  assert.deepEqual(presence.update([]), ['a']);
});
