// The render command: arguments, output to a file or stdout, exit codes and messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRenderCommand, type RenderCommandIo } from '../../src/render/render-command';
import { processRenderIo } from '../../src/render/render-command-io';
import { boxedPagePdf } from '../fixtures/pdf/hostile-pdf';
import { pdfiumWasm } from './pdfium-fixture';
import { decodeLabels } from './zpl-label-decode';
import { decodeEscposRaster } from '../fixtures/escpos-raster-decode';
import { monoPng } from '../fixtures/png-encode';

function fakeIo(files: Record<string, Uint8Array>) {
  const written: Record<string, Uint8Array> = {};
  const out: Uint8Array[] = [];
  let err = '';
  const io: RenderCommandIo = {
    readFile: async (path) => {
      const f = files[path];
      if (!f) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
      return f;
    },
    writeFile: async (path, data) => {
      written[path] = data;
    },
    stdout: (data) => out.push(data),
    stderr: (text) => {
      err += text;
    },
    loadWasm: async () => pdfiumWasm(),
  };
  return { io, written, stdout: () => Buffer.concat(out).toString('latin1'), stderr: () => err };
}

test('renders INPUT.pdf at --size and --dpi into -o OUT.zpl', async () => {
  const f = fakeIo({ 'in.pdf': boxedPagePdf(144, 72) });
  const code = await runRenderCommand(['in.pdf', '--size', '4x6', '--dpi', '300', '-o', 'out.zpl', '--copies', '2'], f.io);
  assert.equal(code, 0, f.stderr());
  const [label] = decodeLabels(Buffer.from(f.written['out.zpl']).toString('latin1'));
  assert.deepEqual([label.pw, label.ll, label.pq], [1200, 1800, 2]);
  assert.match(f.stderr(), /rendered 1 of 1 pages as 1200x1800 dot labels at 300 dpi, \d+ bytes of ZPL to out\.zpl/);
});

test('without -o the ZPL goes to stdout', async () => {
  const f = fakeIo({ 'in.pdf': boxedPagePdf(144, 72) });
  assert.equal(await runRenderCommand(['in.pdf'], f.io), 0);
  assert.deepEqual(decodeLabels(f.stdout()).map((l) => [l.pw, l.ll]), [[406, 203]]);
});

test('bad arguments exit 2 with the usage; unreadable or broken PDFs exit 1 with the reason', async () => {
  for (const argv of [[], ['a.pdf', 'b.pdf'], ['in.pdf', '--size', 'huge'], ['in.pdf', '--dpi', 'fast'], ['in.pdf', '--orientation', 'up'], ['in.pdf', '--bogus']]) {
    const f = fakeIo({});
    assert.equal(await runRenderCommand(argv, f.io), 2, argv.join(' '));
    assert.match(f.stderr(), /usage: printproxyd render INPUT\.pdf/);
  }
  const missing = fakeIo({});
  assert.equal(await runRenderCommand(['nope.pdf'], missing.io), 1);
  assert.match(missing.stderr(), /ENOENT/);
  const garbage = fakeIo({ 'bad.pdf': new TextEncoder().encode('%PDF-garbage') });
  assert.equal(await runRenderCommand(['bad.pdf'], garbage.io), 1);
  assert.match(garbage.stderr(), /PDF could not be parsed/);
  const dpi = fakeIo({ 'in.pdf': boxedPagePdf(144, 72) });
  assert.equal(await runRenderCommand(['in.pdf', '--dpi', '9999'], dpi.io), 2);
  assert.match(dpi.stderr(), /dpi must be an integer from 100 to 600/);
});

test('processRenderIo renders a file on disk through the real fs and the installed pdfium.wasm', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'render-cmd-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), boxedPagePdf(144, 72));
    const io = { ...processRenderIo(), stderr: () => undefined };
    assert.equal(await runRenderCommand([join(dir, 'in.pdf'), '-o', join(dir, 'out.zpl')], io), 0);
    assert.deepEqual(decodeLabels(readFileSync(join(dir, 'out.zpl'), 'latin1')).map((l) => [l.pw, l.ll]), [[406, 203]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a PNG renders too, and --receipt WIDTH writes an ESC/POS raster receipt that wide', async () => {
  const png = monoPng(100, 40, (x) => x < 50);
  const label = fakeIo({ 'in.png': png });
  assert.equal(await runRenderCommand(['in.png', '-o', 'out.zpl'], label.io), 0, label.stderr());
  assert.deepEqual(decodeLabels(Buffer.from(label.written['out.zpl']).toString('latin1')).map((l) => [l.pw, l.ll]), [[102, 102]], 'labels are at least 0.5 in each way');
  const receipt = fakeIo({ 'in.png': png });
  assert.equal(await runRenderCommand(['in.png', '--receipt', '384', '--copies', '2'], receipt.io), 0, receipt.stderr());
  assert.match(receipt.stderr(), /rendered 1 of 1 pages as 384x40 dot receipt pages at 203 dpi, \d+ bytes of ESC\/POS\n$/);
  const decoded = decodeEscposRaster(Buffer.from(receipt.stdout(), 'latin1'));
  assert.deepEqual(decoded.receipts.map((r) => [r.width, r.height]), [[384, 40], [384, 40]]);
});

test('--language tspl writes TSPL labels at the printer\'s resolution (SIZE in inches, one BITMAP, PRINT 1,copies); with --receipt, or an unknown name, it is a usage error', async () => {
  const f = fakeIo({ 'in.pdf': boxedPagePdf(144, 72) });
  const code = await runRenderCommand(['in.pdf', '--language', 'tspl', '--size', '4x6', '--dpi', '300', '--copies', '3', '-o', 'out.tspl'], f.io);
  assert.equal(code, 0, f.stderr());
  const text = Buffer.from(f.written['out.tspl']).toString('latin1');
  assert.match(text, /^SIZE 4,6\r\n/);
  assert.match(text, /\r\nBITMAP 0,0,150,1800,0,/);
  assert.match(text, /PRINT 1,3\r\n$/);
  assert.match(f.stderr(), /as 1200x1800 dot labels at 300 dpi, \d+ bytes of TSPL to out\.tspl/);
  const both = fakeIo({ 'in.pdf': boxedPagePdf(144, 72) });
  assert.equal(await runRenderCommand(['in.pdf', '--language', 'tspl', '--receipt', '576'], both.io), 2);
  assert.match(both.stderr(), /--language tspl does not draw receipts/);
  const unknown = fakeIo({ 'in.pdf': boxedPagePdf(144, 72) });
  assert.equal(await runRenderCommand(['in.pdf', '--language', 'nope'], unknown.io), 2);
  assert.match(unknown.stderr(), /unknown --language "nope"/);
});
