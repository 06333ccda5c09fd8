import { readdirSync } from 'node:fs';
import { CupsServer } from './test/fixtures/cups-server';
import { FakeUsbBus } from './test/fixtures/fake-usb';
import { ZplPrinterEmulator } from './test/fixtures/zebra-tcp-printer';
import { startInProcess } from './test/helpers/in-process-daemon';
async function main() {
  const d = await startInProcess({ usb: () => new FakeUsbBus() });
  const e = new ZplPrinterEmulator(); const port = await e.start();
  const added = (await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } })).body.result.content;
  await d.api('PATCH', `/printers/${added.path}`, { body: { share: { ipp: true, rawPort: null } } });
  const c = new CupsServer();
  await c.start();
  try { console.log(await c.run('lpadmin', ['-p', 'x', '-E', '-v', `ipp://127.0.0.1:${d.ippPort}/ipp/print/${added.id}`, '-m', 'everywhere'])); } catch (err) { console.log('lpadmin failed', (err as Error).message); }
  await new Promise((r) => setTimeout(r, 5000)); console.log(readdirSync(c.dir + '/ppd'));
  console.log(await c.run('lpstat', ['-v', '-p']));
  console.log(c.log().split('\n').filter((l) => /ppd|PPD|everywhere|x:|Get-Printer|ipp:/i.test(l)).slice(-30).join('\n'));
  await c.stop(); await d.stop(); await e.stop();
}
void main();
