// The set-up the IPP sharing tests share: an in-process daemon (fake USB bus) whose one printer is the ZPL emulator.
import { FakeUsbBus } from '../fixtures/fake-usb';
import type { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';

/** Starts the daemon and `emulator`, adds the emulator as a network ZPL printer; a failure stops the daemon again. */
export async function startWithZplEmulator(emulator: ZplPrinterEmulator): Promise<{ d: InProcessDaemon; printer: { path: string; id: string } }> {
  const d = await startInProcess({ usb: () => new FakeUsbBus() });
  try {
    const port = await emulator.start();
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
    return { d, printer: added.body.result.content };
  } catch (err) {
    await d.stop();
    throw err;
  }
}
