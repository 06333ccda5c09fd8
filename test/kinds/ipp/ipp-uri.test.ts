// The printer URI of an IPP connection: its port is the one table's default for the protocol, as in the printer's path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ippUri } from '../../../src/kinds/ipp/ipp-uri';
import { kindServing } from '../../../src/kinds';
import type { Connection } from '../../../src/schemas/printer';

/** The path of a network printer (raw TCP when no protocol is given), by the kind serving its protocol. */
function networkPath(connection: Omit<Connection, 'type'>): string {
  const network: Connection = { protocol: 'tcp', ...connection, type: 'network' };
  return kindServing(network)!.pathOf!(network);
}

test('a connection without a port gets the same default in its URI as in its path, per protocol', () => {
  for (const [protocol, port] of [['ipp', 631], ['ipps', 631], ['http', 631], ['https', 443]] as const) {
    const connection = { type: 'network' as const, host: 'printer.local', protocol };
    assert.equal(networkPath(connection), `ipp_printer-local_${port}`);
    assert.match(ippUri(connection), new RegExp(`^ipps?://printer\\.local:${port}/ipp/print$`), protocol);
  }
});
