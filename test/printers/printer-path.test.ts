// Paths, URI forms and ids of printers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kindServing, pathFromUri } from '../../src/kinds';
import type { Connection } from '../../src/schemas/printer';
import { printerId } from '../../src/kinds/printer-path';

/** The path of a network printer (raw TCP when no protocol is given), by the kind serving its protocol. */
function networkPath(connection: Omit<Connection, 'type'>): string {
  const network: Connection = { protocol: 'tcp', ...connection, type: 'network' };
  return kindServing(network)!.pathOf!(network);
}

test('network paths follow the seed forms', () => {
  assert.equal(networkPath({ host: '10.0.0.5', port: 9100, protocol: 'tcp' }), 'tcp_10-0-0-5_9100');
  assert.equal(networkPath({ host: 'Zebra.Local', protocol: 'tcp' }), 'tcp_zebra-local_9100');
  assert.equal(networkPath({ host: 'office', port: 631, protocol: 'ipp', resourcePath: '/ipp/print' }), 'ipp_office_631');
  assert.equal(networkPath({ host: 'office', port: 631, protocol: 'ipp', resourcePath: '/printers/hp' }), 'ipp_office_631_printers-hp');
});

test('URI forms resolve to the same paths', () => {
  assert.equal(pathFromUri('tcp://10.0.0.5:9100'), 'tcp_10-0-0-5_9100');
  assert.equal(pathFromUri('socket://10.0.0.5'), 'tcp_10-0-0-5_9100');
  assert.equal(pathFromUri('ipp://office:631/ipp/print'), 'ipp_office_631');
  assert.equal(pathFromUri('ipps://office/ipp/print'), 'ipp_office_631');
  assert.equal(pathFromUri('tcp_10-0-0-5_9100'), null);
  assert.equal(pathFromUri('usb_sn_ABC'), null);
});

test('ids are 8 uppercase alphanumerics, stable, and differ between paths', () => {
  const a = printerId('tcp_10-0-0-5_9100');
  assert.match(a, /^[A-Z0-9]{8}$/);
  assert.equal(printerId('tcp_10-0-0-5_9100'), a);
  const ids = new Set(Array.from({ length: 500 }, (_, i) => printerId(`tcp_10-0-${i}-5_9100`)));
  assert.equal(ids.size, 500);
});
