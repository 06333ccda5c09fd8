// Peak RSS of the daemon for one request of each heavy kind, each in a fresh daemon (so no earlier request's memory
// counts): 256 KiB of ZPL with copies 9999, the largest base64 JSON body (spooled), the largest octet-stream body, and
// 8 concurrent 60 MB bodies (one burst). The bound is 256 MiB (issue "Hold under abuse").
// Run: npm run build && node --import tsx bench/one-request-rss.ts [--exe EXECUTABLE [--root DEBIAN_ROOT]]
// (--exe: the daemon as a single executable, inside DEBIAN_ROOT with firmware/in-debian-root.sh when given)
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { executableOption } from './executable-option';
import { peakRssMiB } from './process-memory';

const LIMIT = 64 * 1024 * 1024;

async function untilEnded(d: DaemonHandle, jobId: string): Promise<string> {
  for (;;) {
    const state = (await d.api('GET', `/jobs/${jobId}`)).body.result.content.state;
    if (state === 'completed' || state === 'failed') return state;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const CASES: Record<string, (d: DaemonHandle, path: string) => Promise<string>> = {
  'ZPL 256 KiB, copies 9999 (2.6 GB to the printer)': async (d, path) => {
    const label = `^XA^FO10,10^FD${'x'.repeat(256 * 1024 - 20)}^FS^XZ`;
    const res = await d.api('POST', `/print/${path}`, { body: { content: label, contentType: 'zpl', wait: false, options: { copies: 9999 } } });
    return `${res.status}, ${await untilEnded(d, res.body.result.content.jobId)}`;
  },
  'base64 JSON body just under 64 MiB, wait:false': async (d, path) => {
    const raw = Buffer.alloc(Math.floor(((LIMIT - 200) * 3) / 4), 0x41);
    const res = await d.api('POST', `/print/${path}`, { body: { content: raw.toString('base64'), contentType: 'raw_base64', wait: false } });
    return `${res.status}, ${await untilEnded(d, res.body.result.content.jobId)}`;
  },
  'octet-stream body just under 64 MiB': async (d, path) => {
    const res = await d.api('POST', `/print/${path}`, { raw: Buffer.alloc(LIMIT - 1024, 0x42), headers: { 'content-type': 'application/octet-stream' } });
    return String(res.status);
  },
  '8 concurrent 60 MB octet-stream bodies': async (d, path) => {
    const body = Buffer.alloc(60 * 1000 * 1000, 0x43);
    const answers = await Promise.all(Array.from({ length: 8 }, () => d.api('POST', `/print/${path}`, { raw: body, headers: { 'content-type': 'application/octet-stream' } })));
    return answers.map((a) => a.status).join(' ');
  },
};

async function main(): Promise<void> {
  const exe = executableOption(process.argv);
  console.log(`daemon: ${exe?.label ?? 'node dist/printproxyd.cjs'}; a fresh daemon per case; peak RSS is VmHWM (bound 256 MiB)`);
  console.log('| request | answers | peak RSS MiB |');
  console.log('|---|---|---|');
  for (const [name, run] of Object.entries(CASES)) {
    const d = await startDaemon(exe ? { command: exe.command, startTimeoutMs: 60_000 } : { entry: 'dist/printproxyd.cjs' });
    const emulator = new ZplPrinterEmulator();
    emulator.discard = true;
    const port = await emulator.start();
    const path = (await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } })).body.result.content.path;
    const answers = await run(d, path);
    console.log(`| ${name} | ${answers} | ${peakRssMiB(d.proc.pid!).toFixed(1)} |`);
    await d.stop();
    await emulator.stop();
  }
}

void main();
