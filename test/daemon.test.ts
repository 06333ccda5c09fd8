// The composition root: a start that fails halfway undoes what it had started (USB watch, claims, timers) and rejects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { parseCommandLine } from '../src/cli';
import { startDaemon } from '../src/daemon';
import { silentLogger } from '../src/log';
import { FakeUsbBus } from './fixtures/fake-usb';
import { tempDir } from './helpers/temp-dir';

test('a port already taken fails the start, and what had started is stopped again (the USB bus is no longer watched)', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  const bus = new FakeUsbBus();
  try {
    const command = parseCommandLine(['--data-dir', tempDir('half-start'), '--host', '127.0.0.1', '--port', String(port), '--ipp-port', '0', '--no-https', '--no-mdns'], { PRINTPROXY_API_KEY: 'half-start-key-0123456789' });
    assert.equal(command.kind, 'serve');
    if (command.kind !== 'serve') return;
    await assert.rejects(startDaemon(command.options, silentLogger, () => undefined, { usb: () => bus }));
    assert.equal(bus.watching, 0, 'USB hotplug discovery was stopped');
  } finally {
    taken.close();
  }
});
