// TSPL passed through unmodified over TCP 9100 to the emulator, which reads it the way TSC's manual says (BITMAP bit 0 is
// a printed dot, SIZE in inches or mm), holds labels while it cannot print, and fails on demand (reset mid-job, death).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TcpTransport } from '../../../src/transports/tcp-transport';
import { dotAt, countBlack } from '../../render/zpl-label-decode';
import { TsplPrinterEmulator } from '../../fixtures/tspl-printer';
import { readLabelBarcodes } from '../../render/barcode-reader';

const printer = new TsplPrinterEmulator();
let transport: TcpTransport;
let port = 0;

before(async () => {
  port = await printer.start();
  transport = new TcpTransport({ host: '127.0.0.1', port, connectTimeoutMs: 5000, idleTimeoutMs: 5000, closeWaitMs: 5000 });
});
after(() => printer.stop());

/** Sends `bytes` and waits until the emulator has printed `labels` labels in all. */
async function print(bytes: Uint8Array, labels: number): Promise<void> {
  await transport.send(bytes);
  await printer.waitForLabels(labels, 10_000);
}

const job = (lines: string[], ...binary: Array<[number, Buffer]>) => {
  const parts: Buffer[] = lines.map((l) => Buffer.from(`${l}\r\n`, 'latin1'));
  for (const [at, data] of binary.reverse()) parts.splice(at, 0, data);
  return Buffer.concat(parts);
};

test('a TSPL job arrives byte for byte, and its text, barcode and QR commands are kept on the label and the codes read back', async () => {
  const bytes = job(['SIZE 100 mm,50 mm', 'GAP 2 mm,0', 'DENSITY 10', 'DIRECTION 0', 'CLS', 'TEXT 20,20,"3",0,1,1,"HELLO"', 'BARCODE 20,60,"128",80,1,0,2,2,"ABC-123"', 'QRCODE 400,20,M,5,A,0,"https://example.com"', 'PRINT 2,3']);
  const before = printer.printed.length;
  await print(bytes, before + 1);
  assert.deepEqual(printer.jobs().at(-1), bytes);
  const label = printer.printed[before];
  assert.equal(label.size, '100 mm,50 mm');
  assert.equal(label.widthDots, 800, '100 mm at 8 dots per mm (203 dpi)');
  assert.equal(label.heightDots, 400);
  assert.equal(label.gap, '2 mm,0');
  assert.equal(label.density, 10);
  assert.equal(label.direction, '0');
  assert.equal(label.sets, 2);
  assert.equal(label.copies, 3);
  assert.deepEqual(label.commands, ['TEXT 20,20,"3",0,1,1,"HELLO"', 'BARCODE 20,60,"128",80,1,0,2,2,"ABC-123"', 'QRCODE 400,20,M,5,A,0,"https://example.com"']);
  const texts = (await readLabelBarcodes(label.picture, label.picture.width)).map((r) => `${r.format}:${r.text}`).sort();
  assert.deepEqual(texts, ['Code128:ABC-123', 'QRCode:https://example.com']);
});

test('BITMAP as the manual has it: bit 0 prints a dot, bit 1 leaves white; placed at x,y; modes overwrite, OR, XOR', async () => {
  // SIZE 2,1 at 203 dpi: 406 x 203 dots. A 16 x 2 bitmap at (8, 4): row 0 = 0x00 0xFF (8 black, 8 white), row 1 = 0x0F 0xFF.
  const data = Buffer.from([0x00, 0xff, 0x0f, 0xff]);
  const bytes = job(['SIZE 2,1', 'CLS', 'PRINT 1'], [2, Buffer.concat([Buffer.from('BITMAP 8,4,2,2,0,', 'latin1'), data, Buffer.from('\r\n')])]);
  const before = printer.printed.length;
  await print(bytes, before + 1);
  const { picture, bitmaps } = printer.printed[before];
  assert.deepEqual(bitmaps, ['8,4,2,2,0']);
  assert.equal(picture.width, 406);
  assert.equal(picture.height, 203);
  for (let x = 8; x < 16; x += 1) assert.equal(dotAt(picture, x, 4), true, `dot ${x},4`);
  for (let x = 16; x < 24; x += 1) assert.equal(dotAt(picture, x, 4), false, `dot ${x},4`);
  for (let x = 8; x < 12; x += 1) assert.equal(dotAt(picture, x, 5), true, `dot ${x},5`);
  for (let x = 12; x < 24; x += 1) assert.equal(dotAt(picture, x, 5), false, `dot ${x},5`);
  assert.equal(countBlack(picture), 12);

  // OR adds black without erasing, XOR toggles where the bitmap is black, overwrite erases under white bits
  const one = (x: number, mode: number, byte: number) => Buffer.concat([Buffer.from(`BITMAP ${x},0,1,1,${mode},`, 'latin1'), Buffer.of(byte), Buffer.from('\r\n')]);
  const modes = job(['SIZE 2,1', 'CLS', 'PRINT 1'], [2, Buffer.concat([one(0, 0, 0x0f), one(0, 1, 0xf0), one(0, 2, 0x3f)])]);
  await print(modes, before + 2);
  const after = printer.printed[before + 1].picture;
  // overwrite 0x0F → dots 0-3 black; OR 0xF0 → dots 4-7 black too; XOR 0x3F → dots 0,1 toggle to white
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((x) => dotAt(after, x, 0)), [false, false, true, true, true, true, true, true]);
});

test('binary BITMAP data holding CR, LF, ESC and commas is read by its length, not as commands', async () => {
  const data = Buffer.from([0x0d, 0x0a, 0x1b, 0x21, 0x3f, 0x2c]);
  const bytes = job(['SIZE 1,1', 'CLS', 'PRINT 1'], [2, Buffer.concat([Buffer.from('BITMAP 0,0,1,6,0,', 'latin1'), data, Buffer.from('\r\n')])]);
  const before = printer.printed.length;
  const asked = printer.statusAsked;
  await print(bytes, before + 1);
  assert.equal(printer.statusAsked, asked, 'the ESC ! ? inside the data is not a status query');
  assert.deepEqual(printer.printed[before].commands, []);
  const { picture } = printer.printed[before];
  const blackInRow = (y: number) => [0, 1, 2, 3, 4, 5, 6, 7].filter((x) => dotAt(picture, x, y)).length;
  const zeroBits = (byte: number) => 8 - byte.toString(2).split('').filter((c) => c === '1').length;
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(blackInRow), [...data].map(zeroBits));
});

test('while out of paper a label is held (status byte says so), and leaves once paper is back', async () => {
  const before = printer.printed.length;
  const jobs = printer.jobs().length;
  printer.state.paperOut = true;
  assert.equal(printer.statusByte(), 0x04);
  await transport.send(job(['SIZE 1,1', 'CLS', 'BAR 0,0,10,10', 'PRINT 1']));
  await printer.waitForJobs(jobs + 1, 10_000);
  assert.equal(printer.held.length, 1);
  assert.equal(printer.printed.length, before);
  printer.drain();
  assert.equal(printer.printed.length, before, 'nothing leaves while paper is out');
  printer.state.paperOut = false;
  printer.drain();
  assert.equal(printer.printed.length, before + 1);
  assert.deepEqual(printer.printed[before].commands, ['BAR 0,0,10,10']);
});

test('a reset in the middle of a job fails the send, records no job and prints nothing; the next job prints', async () => {
  const before = printer.printed.length;
  const jobs = printer.jobs().length;
  printer.resetAfterBytes = 4096;
  const big = job(['SIZE 4,6', 'CLS', 'PRINT 1'], [2, Buffer.concat([Buffer.from('BITMAP 0,0,102,1218,0,', 'latin1'), Buffer.alloc(102 * 1218, 0xff), Buffer.from('\r\n')])]);
  await assert.rejects(transport.send(big), (err: Error & { code?: string }) => err.code === 'CONNECTION_RESET');
  printer.resetAfterBytes = 0;
  assert.equal(printer.printed.length, before);
  await print(big, before + 1);
  assert.equal(printer.jobs().length, jobs + 1);
});

test('a dead printer refuses connections; revived on the same port it prints again', async () => {
  await printer.die();
  await assert.rejects(transport.send(job(['SIZE 1,1', 'CLS', 'PRINT 1'])));
  await printer.revive();
  const before = printer.printed.length;
  await print(job(['SIZE 1,1', 'CLS', 'PRINT 1']), before + 1);
});

test('with discard on, a job is counted and printed but not kept; labelsPrinted counts sets x copies', async () => {
  const before = printer.printed.length;
  const labels = printer.labelsPrinted;
  const jobs = printer.jobs().length;
  const received = printer.bytesReceived;
  printer.discard = true;
  const bytes = job(['SIZE 1,1', 'CLS', 'PRINT 2,2']);
  try {
    await print(bytes, before + 1);
  } finally {
    printer.discard = false;
  }
  assert.equal(printer.bytesReceived, received + bytes.length);
  assert.equal(printer.jobs().length, jobs);
  assert.equal(printer.labelsPrinted, labels + 4);
  assert.equal(printer.formatsBuffered(), 0);
});

test('a printer that stops reading (stall) fails the send as stalled, and prints nothing of it', async () => {
  const before = printer.printed.length;
  printer.stall = true;
  const impatient = new TcpTransport({ host: '127.0.0.1', port, connectTimeoutMs: 5000, idleTimeoutMs: 300, closeWaitMs: 300 });
  const big = job(['SIZE 4,6', 'CLS', 'PRINT 1'], [2, Buffer.concat([Buffer.from('BITMAP 0,0,102,200000,0,', 'latin1'), Buffer.alloc(102 * 200_000, 0xff), Buffer.from('\r\n')])]);
  try {
    await assert.rejects(impatient.send(big), (err: Error & { code?: string }) => err.code === 'WRITE_TIMEOUT');
  } finally {
    printer.stall = false;
  }
  assert.equal(printer.printed.length, before);
});
