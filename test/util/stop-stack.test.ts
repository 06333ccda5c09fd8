// Undo steps run newest first, each once, and one that fails does not keep the others from running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../src/log';
import { StopStack } from '../../src/util/stop-stack';

test('unwind runs the undo steps in reverse order of start, logs a failing one and runs the rest, and runs each once', async () => {
  const lines: string[] = [];
  const stack = new StopStack(createLogger('warn', (line) => lines.push(line)));
  const ran: string[] = [];
  stack.push('settings', () => ran.push('settings'));
  stack.push('server', async () => {
    ran.push('server');
    throw new Error('socket already closed');
  });
  stack.push('fleet', async () => void ran.push('fleet'));
  await stack.unwind();
  assert.deepEqual(ran, ['fleet', 'server', 'settings']);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /stopping failed/);
  assert.match(lines[0], /server/);
  await stack.unwind();
  assert.deepEqual(ran, ['fleet', 'server', 'settings'], 'nothing runs twice');
});
