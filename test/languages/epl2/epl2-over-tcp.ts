// The set-up the EPL2 tests share: the EPL2 emulator listening on loopback and a TCP transport to it.
import { after, before } from 'node:test';
import { TcpTransport } from '../../../src/transports/tcp-transport';
import type { Epl2PrinterEmulator } from '../../fixtures/epl2-printer';

/** Starts `printer` before the file's tests (handing `use` a TCP transport to it) and stops it after them. */
export function epl2OverTcp(printer: Epl2PrinterEmulator, use: (transport: TcpTransport) => void): void {
  before(async () => {
    const port = await printer.listen();
    use(new TcpTransport({ host: '127.0.0.1', port, connectTimeoutMs: 5000, idleTimeoutMs: 5000, closeWaitMs: 5000 }));
  });
  after(() => printer.stop());
}
