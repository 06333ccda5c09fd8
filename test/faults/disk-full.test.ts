// A full data partition: every settings and printer write answers 507 and changes nothing; a print to the spool leaves no temporaries.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { listFiles, startOnTmpfs, type TmpfsDaemon } from './tmpfs-daemon';

const NOT_STORED = 'Device cannot store the change';
const EXTENSIONS = [{ name: 'netbird', enabled: false, instances: [] }];

let t: TmpfsDaemon;
let printer: ZplPrinterEmulator;
let printerPath = '';

before(async () => {
  t = await startOnTmpfs(256);
  printer = new ZplPrinterEmulator();
  const port = await printer.start();
  const added = await t.d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl', tags: ['before'] } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  printerPath = added.body.result.content.path;
  assert.equal((await t.d.api('POST', '/shares', { body: { sharePath: '/mnt/shares/s', password: 'pw', uuid: 'share-1' } })).status, 201);
  assert.equal((await t.d.api('PUT', '/extensions/settings', { body: EXTENSIONS })).status, 200);
});

after(async () => {
  t.free();
  await t.d.stop();
  await printer.stop();
});

/** What a client and the disk show: every settings answer, printers without live status, settings.json, the file list. */
async function observe(): Promise<unknown> {
  const content = async (path: string) => {
    const res = await t.d.api('GET', path);
    assert.equal(res.status, 200, `GET ${path}: ${JSON.stringify(res.body)}`);
    return res.body.result.content;
  };
  const printers = (await content('/printers')) as Array<Record<string, unknown>>;
  return {
    settings: await content('/settings'),
    shares: await content('/shares'),
    extensions: await content('/extensions/settings'),
    printers: printers.map(({ status: _s, statusReasons: _r, ...rest }) => rest),
    file: readFileSync(t.path('settings.json'), 'utf8'),
    files: listFiles(t.path()),
  };
}

const WRITES: Array<[string, () => string, unknown?]> = [
  ['PUT', () => '/settings', { alias: 'changed', allowedOrigins: ['https://x.example'], renderWorkers: 3 }],
  ['POST', () => '/settings/api-key'],
  ['POST', () => '/shares', { sharePath: '/mnt/shares/new', uuid: 'share-2' }],
  ['PUT', () => '/shares/share-1', { sharePath: '/mnt/shares/other', password: 'new' }],
  ['DELETE', () => '/shares/share-1'],
  ['PUT', () => '/extensions/settings', [{ name: 'netbird', enabled: true, instances: [] }]],
  ['POST', () => '/printers', { connection: { type: 'network', host: '127.0.0.1', port: 9, protocol: 'tcp' }, content: 'zpl' }],
  ['PATCH', () => `/printers/${printerPath}`, { tags: ['after'], dpi: 300, dither: true }],
  ['DELETE', () => `/printers/${printerPath}`],
];

test('with the data partition full, each settings and printer write answers 507 and memory, disk and answers stay as before', async () => {
  const before = await observe();
  t.fill();
  for (const [method, path, body] of WRITES) {
    const res = await t.d.api(method, path(), body === undefined ? {} : { body });
    assert.equal(res.status, 507, `${method} ${path()}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.result.message, NOT_STORED, `${method} ${path()}`);
    assert.deepEqual(await observe(), before, `after ${method} ${path()}`);
  }
  assert.equal((await t.d.api('GET', '/settings', { key: t.d.apiKey })).status, 200, 'the old API key still works');
});

test('with the data partition full, a wait:false print answers 507 and leaves nothing in the spool', async () => {
  t.fill();
  const res = await t.d.api('POST', `/print/${printerPath}`, { body: { content: '^XA^FDx^FS^XZ'.repeat(400), contentType: 'zpl', wait: false } });
  assert.equal(res.status, 507, JSON.stringify(res.body));
  // no job file and no temporary; the markers' journal (made as the job began to render) holds no line
  assert.deepEqual(listFiles(t.path('spool')).filter((f) => f !== 'marks.log'), []);
  if (existsSync(t.path('spool/marks.log'))) assert.equal(readFileSync(t.path('spool/marks.log'), 'utf8'), '');
  assert.equal(printer.jobs().length, 0);
});

test('once space is free again, writes succeed and reach the disk', async () => {
  t.free();
  const key = await t.d.api('POST', '/settings/api-key');
  assert.equal(key.status, 200, JSON.stringify(key.body));
  const newKey: string = key.body.result.content.apiKey;
  assert.equal((await t.d.api('GET', '/settings', { key: t.d.apiKey })).status, 401, 'the old key is gone');
  assert.equal((await t.d.api('GET', '/settings', { key: newKey })).status, 200, 'the new key works');
  const put = await t.d.api('PUT', '/settings', { key: newKey, body: { alias: 'stored' } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const onDisk = JSON.parse(readFileSync(t.path('settings.json'), 'utf8'));
  assert.equal(onDisk.alias, 'stored');
  assert.equal(onDisk.apiKey, newKey);
  assert.deepEqual(listFiles(t.path()).filter((f) => f.endsWith('.tmp')), []);
});
