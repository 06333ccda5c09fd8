// The language and kind tables read together: every language works on every transport it declares — documents render
// to it (or pass as they are), its own bytes pass through a real driver byte for byte, and the driver reads its status —
// so a language or a transport cannot be half-added.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createFilters, type FilterInput, type Render } from '../../src/filters/filters';
import { PRINTER_KINDS, languageOf, type KindDeps } from '../../src/kinds';
import { LANGUAGES, languageOfContent, type LanguageModule, type LanguageName, type TransportName } from '../../src/languages';
import { silentLogger as logger } from '../../src/log';
import type { PrinterRecord } from '../../src/schemas/printer';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { monoPng } from '../fixtures/png-encode';
import { sharedRasterisers } from '../render/pdfium-fixture';
import { renderDocument } from '../../src/render/render-document';

/**
 * What a printer of each language answers to its status query when it is out of paper (test side: a new language
 * without an entry fails here). null: the language asks nothing of the printer.
 */
const PAPER_OUT_REPLY: Record<LanguageName, Buffer[] | null> = {
  zpl: [Buffer.from('\x02030,1,0,1218,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,1,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n', 'latin1')],
  tspl: [Buffer.of(0x04)],
  escpos: [Buffer.of(0x16), Buffer.of(0x12), Buffer.of(0x12), Buffer.of(0x72)],
  document: null,
  epl2: [Buffer.from('07\r\n', 'latin1')],
  dymo: [Buffer.of(0x20)],
};

/** A page the renderers draw: an 80 x 40 dot PNG with a black square. */
const PAGE_PNG = monoPng(80, 40, (x, y) => x >= 10 && x < 30 && y >= 10 && y < 30);

const timeouts = { connectMs: 1000, idleMs: 1000, queryMs: 300 };
const servers: net.Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

/** A TCP printer that keeps every byte and answers each read with `reply` (nothing when null). */
async function tcpPrinter(reply: Buffer[] | null): Promise<{ port: number; received: () => Buffer }> {
  const got: Buffer[] = [];
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      got.push(chunk);
      if (reply && chunk.length <= 8) socket.write(Buffer.concat(reply));
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, received: () => Buffer.concat(got) };
}

/** A printer record of `language` on `transport`. */
function record(language: LanguageModule, transport: TransportName, extra: Partial<PrinterRecord>): PrinterRecord {
  const protocol = transport === 'ipp' ? 'ipp' : 'tcp';
  const connection = transport === 'usb' ? { type: 'usb' as const } : { type: 'network' as const, host: '127.0.0.1', port: 9, protocol };
  return { id: 'ABCDEFGH', path: `${transport}_x`, name: 'x', content: language.content, connection, tags: [], discovered: false, ...extra } as PrinterRecord;
}

/** The filters with the worker's own render run in process. */
async function filters() {
  const rasterisers = await sharedRasterisers();
  const render: Render = async (job) => renderDocument(job, rasterisers);
  return createFilters(render);
}

function input(language: LanguageName, format: FilterInput['format'], bytes: Uint8Array): FilterInput {
  return { bytes, format, language, printer: {}, title: 't', userName: 'u', options: {} };
}

test('every language names transports of the kind table, and its content maps back to it', () => {
  const transports = new Set(PRINTER_KINDS.map((kind) => kind.transport));
  for (const language of Object.values(LANGUAGES)) {
    assert.ok(language.transports.length > 0, `${language.name} runs on no transport`);
    for (const t of language.transports) assert.ok(transports.has(t), `${language.name} declares ${t}, which no kind is`);
    assert.equal(languageOfContent(language.content), language, `content ${language.content} is ${language.name}`);
    assert.ok(Object.hasOwn(PAPER_OUT_REPLY, language.name), `no paper-out reply for ${language.name} in this test`);
    assert.equal(PAPER_OUT_REPLY[language.name] === null, language.device === null, `${language.name}: a reply exactly when it asks the printer`);
  }
});

for (const language of Object.values(LANGUAGES)) {
  describe(`${language.name}`, () => {
    test('a PNG renders to its language (or passes as image/png to printers that take documents); its own bytes pass unchanged', async () => {
      const prepare = await filters();
      const png = await prepare(input(language.name, 'png', PAGE_PNG), new AbortController().signal);
      if (language.pages) {
        assert.ok(png.bytes.length > 0 && !Buffer.from(png.bytes).equals(PAGE_PNG), 'rendered');
        assert.equal(png.mimeType, language.passThroughMimeType);
      } else {
        assert.deepEqual(Buffer.from(png.bytes), PAGE_PNG);
        assert.equal(png.mimeType, 'image/png');
      }
      const own = Buffer.from('own bytes \x1b\x00\xff', 'latin1');
      const passed = await prepare(input(language.name, language.nativeFormat, own), new AbortController().signal);
      assert.deepEqual(Buffer.from(passed.bytes), own);
    });

    for (const transport of language.transports) {
      const kind = PRINTER_KINDS.find((k) => k.transport === transport)!;
      if (transport === 'ipp') {
        test('over ipp: the IPP kind speaks it (documents only)', () => {
          assert.equal(kind.language, language.name);
          assert.equal(languageOf(record(language, 'ipp', {})), language);
        });
        continue;
      }
      test(`over ${transport}: its bytes reach the printer byte for byte and the driver reads a paper-out printer's status`, async () => {
        const reply = PAPER_OUT_REPLY[language.name];
        const own = Buffer.from(`${language.name} job\r\n`, 'latin1');
        const doc = { bytes: own, repeat: 1, mimeType: language.passThroughMimeType, title: 't', userName: 'u', options: {} };
        if (transport === 'tcp') {
          const printer = await tcpPrinter(reply);
          const rec = record(language, 'tcp', { connection: { type: 'network', host: '127.0.0.1', port: printer.port, protocol: 'tcp' } });
          assert.equal(languageOf(rec), language);
          const driver = kind.start({ timeouts, mdns: false, printerAt: () => null, logger, hardware: { usb: () => new FakeUsbBus() }, warn: () => undefined }).openDriver(rec, language);
          await driver.deliver(doc, new AbortController().signal);
          assert.ok(printer.received().includes(own), 'the job arrived whole');
          const status = await driver.status();
          // a raw socket is asked only in a language that says so; the others read online when the socket opens
          assert.equal(status.status, language.device?.overNetwork ? 'error' : 'online');
          if (language.device?.overNetwork) assert.ok(status.statusReasons.includes('media-empty-error'), status.statusReasons.join());
        } else {
          const bus = new FakeUsbBus();
          const device = bus.add({ vendorId: 0x1234, productId: 0x5678, serialNumber: language.name, hasInEndpoint: true });
          const { busNumber, portNumbers } = device.info;
          const rec = record(language, 'usb', { locator: { bus: busNumber, ports: portNumbers.join('.'), vendorId: 0x1234, productId: 0x5678, interface: 0 } });
          assert.equal(languageOf(rec), language);
          const session = kind.start({ timeouts, mdns: false, printerAt: () => null, logger, hardware: { usb: () => bus }, warn: () => undefined } satisfies KindDeps);
          const driver = session.openDriver(rec, language);
          await driver.deliver(doc, new AbortController().signal);
          assert.deepEqual(device.lastJob(), own);
          device.inQueue.push(...(reply ?? []));
          const status = await driver.status();
          // without a query of its own, port status (selected, no error) answers
          assert.equal(status.status, language.device ? 'error' : 'online');
          if (language.device) assert.ok(status.statusReasons.includes('media-empty-error'), status.statusReasons.join());
          await session.stop();
        }
      });
    }
  });
}
