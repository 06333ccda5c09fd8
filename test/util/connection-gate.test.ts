// The keyless doors' connection count: limits in all and per address, a parent shared by several doors, exits once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionGate } from '../../src/util/connection-gate';

test('refuses past the per-address count and past the total; a place given back is taken again', () => {
  const gate = new ConnectionGate({ total: 3, perAddress: 2 });
  const a1 = gate.enter('a');
  assert.ok(a1 && gate.enter('a'));
  assert.equal(gate.enter('a'), null, 'a third from the same address');
  assert.ok(gate.enter('b'));
  assert.equal(gate.enter('c'), null, 'past the total');
  a1();
  a1();
  assert.equal(gate.size(), 2, 'an exit counts once');
  assert.ok(gate.enter('c'));
});

test('a child takes a place in its parent too: two doors together keep to the parent\'s total', () => {
  const doors = new ConnectionGate({ total: 2, perAddress: Number.POSITIVE_INFINITY });
  const raw = new ConnectionGate({ total: 10, perAddress: 10 }, doors);
  const ipp = new ConnectionGate({ total: 10, perAddress: 10 }, doors);
  const first = raw.enter('a');
  assert.ok(first && ipp.enter('a'));
  assert.equal(raw.enter('b'), null);
  assert.equal(raw.size(), 1, 'a refusal by the parent takes nothing in the child');
  first();
  assert.equal(doors.size(), 1);
  assert.ok(ipp.enter('b'));
});
