// Plausible-then-mutated JSON bodies for each route that takes one (schemas in src/schemas and src/http/print-request.ts).
import fc from 'fast-check';
import { field, host, localPath, looseObject, tag, text } from './values';

const connection = looseObject({
  type: fc.constantFrom('network', 'usb'),
  host,
  port: fc.oneof(fc.constantFrom(9100, 631, 80, 443, 1, 9), fc.integer({ min: 1, max: 65535 })),
  protocol: fc.constantFrom('tcp', 'ipp', 'ipps', 'http', 'https', 'usb'),
  resourcePath: fc.oneof(fc.constantFrom('/ipp/print', '/', '', '/../x', '/%00'), text),
});

const contentKind = fc.constantFrom('raw', 'pdf', 'zpl');

/** A connection POST /printers accepts: a network printer at any host shape on a likely port. */
const goodConnection = fc.record(
  {
    type: fc.constant('network'),
    host,
    port: fc.oneof(fc.constantFrom(9100, 631, 9), fc.integer({ min: 1, max: 65535 })),
    protocol: fc.constantFrom('tcp', 'ipp', 'ipps', 'http', 'https'),
    resourcePath: fc.constantFrom('/ipp/print', '/'),
  },
  { requiredKeys: ['type', 'host', 'protocol'] },
);

/** POST /printers: mostly one that is added (so later requests hit real printers), else mutated. */
export const createPrinterBody = fc.oneof(
  fc.record({ connection: goodConnection, content: contentKind, tags: fc.array(tag.filter((t) => /^[A-Za-z0-9._-]{1,64}$/.test(t)), { maxLength: 3 }) }, { requiredKeys: ['connection'] }),
  looseObject({ connection, content: contentKind, model: text, tags: fc.array(tag, { maxLength: 4 }) }),
);

/** PATCH /printers/{path}. */
export const patchPrinterBody = looseObject({
  tags: fc.array(tag, { maxLength: 4 }),
  model: text,
  content: contentKind,
  dpi: fc.constantFrom(152, 203, 300, 600, null, 0, 204),
  dither: fc.constantFrom(true, false, null),
  paperWidth: fc.constantFrom(58, 80, null, 72),
});

const options = looseObject({
  copies: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, -1, 9999, 10000, 1.5)),
  duplex: fc.constantFrom('one-sided', 'long-edge', 'short-edge', 'two-sided'),
  colorMode: fc.constantFrom('color', 'grayscale', 'auto', 'monochrome'),
  paperSize: fc.constantFrom('4x6', '2x1', '4x6in', '100x150mm', 'iso_a4_210x297mm', '0x0', '99999x99999mm', '1e9x1in', 'x'),
  pageRange: fc.constantFrom('1', '1-5', '1,3,7-9', '5-3', '0', '0-0', '99999999999999999999', ' 1 - 2 ', '1-'),
  bin: text,
  fitToPage: fc.boolean(),
  orientation: fc.constantFrom('portrait', 'landscape', 'reverse-landscape', 'reverse-portrait', 'upside'),
  quality: fc.constantFrom('draft', 'normal', 'high', 'best'),
  dither: fc.boolean(),
});

const printContent = fc.oneof(
  fc.constantFrom('^XA^FO50,50^A0N,50,50^FDfuzz^FS^XZ', '^XZ~JA', '~HS', 'XkE=', 'JVBERi0xLjQK', '====', 'a', 'http://127.0.0.1:1/doc.pdf', 'https://10.9.8.7/x.pdf', 'http://printer.invalid/a', 'ftp://x/y', 'http://', 'http:// x', 'iVBORw0KGgo='),
  localPath,
  fc.base64String({ maxLength: 200 }),
  text,
);

/** A JSON print body the daemon accepts, so the job reaches the spooler and the (unreachable) printer. */
const goodPrintBody = fc.record(
  {
    content: fc.constantFrom('^XA^FO50,50^A0N,50,50^FDfuzz^FS^XZ', '~HS'),
    contentType: fc.constant('zpl'),
    title: fc.string({ maxLength: 20 }),
    wait: fc.boolean(),
    idempotencyKey: fc.constantFrom('k1', 'k2', 'k3'),
    options: fc.record({ copies: fc.integer({ min: 1, max: 3 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['content', 'contentType'] },
);

/** POST /print/{target} (JSON form): a good body or a mutated one. */
export const printBody = fc.oneof(goodPrintBody, looseObject({
  content: printContent,
  contentType: fc.constantFrom('pdf_url', 'pdf_base64', 'raw_url', 'raw_base64', 'zpl', 'zpl_base64', 'image_url', 'image_base64', 'pdf', 'url'),
  title: text,
  source: text,
  wait: fc.boolean(),
  options,
  idempotencyKey: fc.oneof(fc.constantFrom('k1', 'k2', ''), text),
  copies: fc.constantFrom(1, 2, 0, 10000),
  paperSize: fc.constantFrom('4x6', 'letter', ''),
}));

/** PUT /settings (maxBodyBytes kept large: a tiny limit would turn the rest of a run into 413s). */
export const settingsBody = looseObject({
  alias: text,
  subDomain: fc.constantFrom('abc', 'a-b-1', '', 'UPPER', 'x'.repeat(64), 'dot.ted'),
  allowedOrigins: fc.oneof(fc.constant(['*']), fc.array(fc.constantFrom('*', 'http://a', 'https://b.example', ''), { maxLength: 3 })),
  maxBodyBytes: fc.constantFrom(64 * 1024 * 1024, 16 * 1024 * 1024, 1024 ** 3, 1023, 1024 ** 3 + 1, 1.5),
  renderWorkers: fc.constantFrom(1, 2, null, 0, 17),
});

/** POST /shares and PUT /shares/{uuid}. */
export const shareBody = looseObject({
  sharePath: fc.oneof(localPath, text),
  alias: text,
  username: text,
  password: fc.oneof(fc.constantFrom('********', 'secret'), text),
  server: fc.oneof(host, text),
  browsable: fc.boolean(),
  uuid: fc.oneof(fc.uuid(), fc.constantFrom('a', 'share-1', '-', 'x'.repeat(65), '')),
});

const extensionInstance = looseObject({
  oidcPath: text,
  clientId: text,
  clientSecret: fc.oneof(fc.constantFrom('********', 's3cret'), text),
  target: fc.constantFrom('http://127.0.0.1:1/api/v1/print/tag_front', '', 'x'),
  logicalPrinterId: text,
  tag: fc.oneof(tag, text),
  startOnBoot: fc.boolean(),
  id: fc.oneof(fc.nat(5), fc.constantFrom(-1, 1.5)),
});

/** PUT /extensions/settings (the whole array). */
export const extensionsBody = fc.array(
  looseObject({ name: fc.constantFrom('netbird', 'other', ''), enabled: fc.boolean(), instances: fc.array(extensionInstance, { maxLength: 3 }) }),
  { maxLength: 3 },
).map((a) => a as unknown);

/** Any of the bodies above, for a body sent to the "wrong" route. */
export const anyRouteBody = fc.oneof(createPrinterBody, patchPrinterBody, printBody, settingsBody, shareBody, extensionsBody, field(fc.constant(null)));
