// Test helper: a Transport straight onto a DymoPrinterEmulator's byte core (no USB): send feeds it, query feeds the
// command and resolves what came back, null at once when nothing did (the emulator answers synchronously or never).
import type { SendResult, Transport } from '../../../src/transports/transport';
import type { DymoPrinterEmulator } from '../../fixtures/dymo-printer';

/** An in-memory Transport to `printer`; `unreachable` makes every call fail as a gone device would. */
export function dymoMemoryTransport(printer: DymoPrinterEmulator, options: { unreachable?: boolean } = {}): Transport & { queries: Buffer[] } {
  const queries: Buffer[] = [];
  const gone = () => Promise.reject(new Error('device gone'));
  return {
    describe: 'memory dymo',
    queries,
    async send(data: Uint8Array): Promise<SendResult> {
      if (options.unreachable) return gone();
      printer.feed(data);
      return { bytes: data.length };
    },
    async query(command, complete) {
      if (options.unreachable) return gone();
      queries.push(Buffer.from(command));
      const reply = printer.feed(command);
      return reply.length > 0 && complete(reply) ? reply : null;
    },
  };
}
