// The one memory budget: one holder always fits, others only within the capacity, read live.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryBudget } from '../../src/util/memory-budget';

test('one holder fits whatever its size; others only within the capacity; what is given back is free again', () => {
  let capacity = 100;
  const budget = new MemoryBudget(() => capacity);
  assert.equal(budget.take(150), true, 'alone, a holder larger than the capacity still goes');
  assert.equal(budget.take(1), false);
  budget.give(150);
  assert.equal(budget.take(60), true);
  assert.equal(budget.take(40), true);
  assert.equal(budget.take(1), false);
  capacity = 200;
  assert.equal(budget.take(100), true, 'the capacity is read live');
  assert.equal(budget.held(), 200);
});
