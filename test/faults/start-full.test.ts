// A data partition that is full or read-only when the daemon starts: it still boots, serves reads and prints that need no
// spool, says so in GET /status `warnings`, answers writes with 507, and stores what waited once space is back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startDaemon, tempDataDir } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { startOnTmpfs, type TmpfsDaemon } from './tmpfs-daemon';

const NOT_STORED = 'Device cannot store the change';

async function warnings(t: TmpfsDaemon, key?: string): Promise<string[]> {
  const status = await t.d.api('GET', '/status', key === undefined ? {} : { key });
  assert.equal(status.status, 200, JSON.stringify(status.body));
  return status.body.result.content.warnings;
}

const storageWarning = (lines: string[]) => lines.find((w) => /^storage is/.test(w));

/** A data dir of an earlier run: settings with a printer at `port`, and a webhook. */
async function earlierRun(port: number): Promise<{ dir: string; printerPath: string }> {
  const dir = tempDataDir();
  const d = await startDaemon({ dataDir: dir });
  try {
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal((await d.api('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook', types: ['job.state'] } })).status, 201);
    return { dir, printerPath: added.body.result.content.path };
  } finally {
    await d.stop();
  }
}

test('a first start on a full data partition without a key: unclaimed; the claim answers 507 and leaves it so, and succeeds once space is back', async () => {
  const t = await startOnTmpfs(128, { apiKey: null }, { full: true });
  try {
    const key = 'claim-on-full-0123456789';
    await until('where to set the key is announced', () => /to set the API key|no API key is set/.test(t.d.stdout()));
    const refused = await t.d.api('POST', '/setup', { key: null, body: { apiKey: key } });
    assert.equal(refused.status, 507, JSON.stringify(refused.body));
    assert.equal(refused.body.result.message, NOT_STORED);
    assert.deepEqual((await t.d.api('GET', '/setup', { key: null })).body.result.content, { claimed: false });
    const locked = await t.d.api('GET', '/status', { key });
    assert.equal(locked.status, 401);
    assert.equal(locked.body.result.content.message, 'Device not set up');

    t.free();
    assert.equal((await t.d.api('POST', '/setup', { key: null, body: { apiKey: key } })).status, 201);
    assert.equal(JSON.parse(readFileSync(t.path('settings.json'), 'utf8')).apiKey, key, 'the key is stored');
    await until('the storage warning goes once space is free', async () => storageWarning(await warnings(t, key)) === undefined);
  } finally {
    await t.d.stop();
  }
});

test('a first start on a full data partition with a key: boots, warns, refuses writes, and stores the settings once space is back', async () => {
  const t = await startOnTmpfs(128, { args: ['--https-port', '0'] }, { full: true });
  try {
    // the certificate is made after the HTTP listener opens
    await until('the certificate that could not be stored is named', async () => /TLS certificate/.test(storageWarning(await warnings(t)) ?? ''));
    assert.match(storageWarning(await warnings(t)) ?? '', /^storage is full.*settings \(ENOSPC\)/);
    assert.doesNotMatch(t.d.stdout(), /listening on https/, 'no certificate could be stored: HTTPS waits');
    assert.equal((await t.d.api('GET', '/settings')).status, 200);
    assert.equal((await t.d.api('GET', '/printers')).status, 200);
    const put = await t.d.api('PUT', '/settings', { body: { alias: 'x' } });
    assert.equal(put.status, 507, JSON.stringify(put.body));
    assert.equal(put.body.result.message, NOT_STORED);

    t.free();
    await until('the storage warning goes once space is free', async () => storageWarning(await warnings(t)) === undefined);
    assert.equal(JSON.parse(readFileSync(t.path('settings.json'), 'utf8')).apiKey, t.d.apiKey, 'the key given is the key stored');
    await until('HTTPS listens once its certificate is stored', () => /listening on https/.test(t.d.stdout()));
    assert.equal((await t.d.api('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook' } })).status, 201, 'webhooks can be stored again');
    const added = await t.d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: 9, protocol: 'tcp' }, content: 'zpl' } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const spooled = await t.d.api('POST', `/print/${added.body.result.content.path}`, { body: { content: '^XA^FDx^FS^XZ', contentType: 'zpl', wait: false } });
    assert.equal(spooled.status, 201, `the spool takes jobs again: ${JSON.stringify(spooled.body)}`);
  } finally {
    await t.d.stop();
  }
});

test('a full data partition with settings from an earlier run: reads, webhooks and printing without the spool work; the spool answers 507', async () => {
  const printer = new ZplPrinterEmulator();
  const { dir, printerPath } = await earlierRun(await printer.start());
  const t = await startOnTmpfs(256, {}, { seed: dir, full: true });
  try {
    assert.match(storageWarning(await warnings(t)) ?? '', /^storage is full/);
    assert.equal((await t.d.api('GET', '/webhooks')).body.result.content.length, 1);
    const printed = await t.d.api('POST', `/print/${printerPath}`, { body: { content: '^XA^FDnow^FS^XZ', contentType: 'zpl', wait: true } });
    assert.equal(printed.status, 200, JSON.stringify(printed.body));
    assert.equal(printer.jobs().length, 1);
    const spooled = await t.d.api('POST', `/print/${printerPath}`, { body: { content: '^XA^FDlater^FS^XZ'.repeat(2000), contentType: 'zpl', wait: false } });
    assert.equal(spooled.status, 507, JSON.stringify(spooled.body));
  } finally {
    await t.d.stop();
    await printer.stop();
  }
});

test('a read-only data partition: the daemon starts, reads work, writes answer 507, and GET /status says storage is read-only', async () => {
  const t = await startOnTmpfs(128, {}, { readOnly: true });
  try {
    assert.match(storageWarning(await warnings(t)) ?? '', /^storage is read-only.*settings \(EROFS\)/);
    assert.equal((await t.d.api('GET', '/settings')).status, 200);
    const writes: Array<[string, string, unknown]> = [
      ['PUT', '/settings', { alias: 'x' }],
      ['POST', '/settings/api-key', undefined],
      ['POST', '/shares', { sharePath: '/mnt/shares/nas' }],
      ['POST', '/printers', { connection: { type: 'network', host: '127.0.0.1', port: 9, protocol: 'tcp' }, content: 'zpl' }],
      ['POST', '/webhooks', { url: 'http://127.0.0.1:9/hook' }],
    ];
    for (const [method, path, body] of writes) {
      const res = await t.d.api(method, path, body === undefined ? {} : { body });
      assert.equal(res.status, 507, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual((await t.d.api('GET', '/webhooks')).body.result.content, []);
    assert.equal((await t.d.api('GET', '/settings')).status, 200, 'the key given at start still works');
  } finally {
    await t.d.stop();
  }
});

test('a partition filled while the daemon runs is a warning in GET /status, gone once space is freed', async () => {
  const t = await startOnTmpfs(256);
  try {
    assert.equal(storageWarning(await warnings(t)), undefined);
    t.fill();
    assert.match(storageWarning(await warnings(t)) ?? '', /^storage is full/);
    t.free();
    await until('the storage warning goes', async () => storageWarning(await warnings(t)) === undefined);
  } finally {
    t.free();
    await t.d.stop();
  }
});

test('a read-only data partition holding what a crash left (temporaries, an orphan outbox): the daemon starts with the stored settings', async () => {
  const printer = new ZplPrinterEmulator();
  const { dir, printerPath } = await earlierRun(await printer.start());
  writeFileSync(join(dir, '.settings.json.999.1.tmp'), '{"half":');
  writeFileSync(join(dir, '.tls-key.pem.999.2.tmp'), 'half');
  writeFileSync(join(dir, 'webhooks', '.webhooks.json.999.3.tmp'), '{');
  writeFileSync(join(dir, 'webhooks', '00000000-0000-4000-8000-000000000000.outbox'), '');
  writeFileSync(join(dir, 'spool', '.pj_000000000000.json.999.4.tmp'), '{');
  const t = await startOnTmpfs(256, {}, { seed: dir, readOnly: true });
  try {
    assert.match(storageWarning(await warnings(t)) ?? '', /^storage is read-only/);
    assert.equal((await t.d.api('GET', '/printers')).body.result.content[0].path, printerPath);
    assert.equal((await t.d.api('GET', '/webhooks')).body.result.content.length, 1);
  } finally {
    await t.d.stop();
    await printer.stop();
  }
});
