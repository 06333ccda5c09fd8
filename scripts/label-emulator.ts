// A ZPL label printer to try the daemon without one: the test suite's emulator on 127.0.0.1 (port 9100, or the first
// argument), answering `~HS` as a ready Zebra; each job it gets is described on stdout (labels, size, graphics).
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';

/** One line per job: its labels (`^XA` formats), their ^PW x ^LL in dots, and how many ^GF graphics it carries. */
function describe(job: Buffer): string {
  const zpl = job.toString('latin1');
  const labels = (zpl.match(/\^XA/gi) ?? []).length;
  const size = /\^PW(\d+)[\s\S]*?\^LL(\d+)/i.exec(zpl);
  const graphics = (zpl.match(/\^GF/gi) ?? []).length;
  const text = [...zpl.matchAll(/\^FD([^^]*)/gi)].map((m) => m[1]).join(' | ');
  return `${labels} label(s)${size ? `, ${size[1]} x ${size[2]} dots` : ''}, ${graphics} graphic(s), ${job.length} bytes${text ? `: ${text}` : ''}`;
}

async function main(): Promise<void> {
  const printer = new ZplPrinterEmulator();
  const port = await printer.start(Number(process.argv[2] ?? 9100));
  console.log(`ZPL label printer emulator on 127.0.0.1:${port} (Ctrl-C stops it)`);
  for (let seen = 0; ; seen += 1) {
    await printer.waitForJobs(seen + 1, 2 ** 31 - 1);
    console.log(`job ${seen + 1}: ${describe(printer.jobs()[seen])}`);
  }
}

void main();
