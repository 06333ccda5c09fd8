// USB discovery on a fake bus: hotplug paths never collide, and a printer keeps its path while it stays plugged in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsbDiscovery } from '../../src/kinds/usb/usb-discovery';
import type { DiscoveryEvent } from '../../src/discovery/source';
import { silentLogger } from '../../src/log';
import { FakeUsbBus, type FakeDeviceSpec } from '../fixtures/fake-usb';
import { InterfaceClaims } from '../../src/usb/usb-claim';
import { until } from '../helpers/until';

const CLONE: FakeDeviceSpec = { vendorId: 0x0fe6, productId: 0x811e, serialNumber: '1234567890' };

async function watching(bus: FakeUsbBus): Promise<{ discovery: UsbDiscovery; events: DiscoveryEvent[]; eventsReach: (count: number) => Promise<void> }> {
  const discovery = new UsbDiscovery({ claims: new InterfaceClaims(bus), timeoutMs: 100, logger: silentLogger });
  const events: DiscoveryEvent[] = [];
  await discovery.start((event) => events.push(event));
  // waits (bounded: 10 s) until `count` hotplug events have arrived
  const eventsReach = (count: number) => until(`${count} hotplug events (${events.length} so far)`, () => events.length >= count);
  return { discovery, events, eventsReach };
}

function attachedPaths(events: DiscoveryEvent[]): string[] {
  return events.map((e) => (e.kind === 'attached' ? e.printer.path : `-${e.path}`));
}

test('a twin plugged in later gets a port-based path; the printer already there keeps its own, across a rescan too', async () => {
  const bus = new FakeUsbBus();
  bus.add({ ...CLONE, ports: [1] });
  const { discovery, events, eventsReach } = await watching(bus);
  assert.deepEqual((await discovery.scan()).map((p) => p.path), ['usb_sn_1234567890']);
  bus.add({ ...CLONE, ports: [2] });
  await eventsReach(1);
  assert.deepEqual(attachedPaths(events), ['usb_sn_0fe6-811e-port-1-2']);
  assert.deepEqual((await discovery.scan()).map((p) => p.path), ['usb_sn_1234567890', 'usb_sn_0fe6-811e-port-1-2']);
  await discovery.stop();
});

test('twins plugged in one after the other while watching never share a path; re-plugging one gives it back its path', async () => {
  const bus = new FakeUsbBus();
  const { discovery, events, eventsReach } = await watching(bus);
  const first = bus.add({ ...CLONE, ports: [1] });
  bus.add({ ...CLONE, ports: [2] });
  await eventsReach(2);
  assert.deepEqual(attachedPaths(events), ['usb_sn_1234567890', 'usb_sn_0fe6-811e-port-1-2']);
  bus.detach(first);
  bus.attach(first);
  await eventsReach(4);
  assert.deepEqual(attachedPaths(events).slice(2), ['-usb_sn_1234567890', 'usb_sn_1234567890']);
  await discovery.stop();
});
