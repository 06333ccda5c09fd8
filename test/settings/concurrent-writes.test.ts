// Writes that race: each is checked against the state it is applied to, so two requests for one uuid or path cannot both pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors';
import { shareRoutes } from '../../src/http/routes/shares';
import type { ApiRequest } from '../../src/http/route';
import { silentLogger } from '../../src/log';
import { locateManual, pathFromUri } from '../../src/kinds';
import { PrinterRegistry } from '../../src/printers/registry';
import { SettingsStore } from '../../src/settings/settings-store';
import { tempDir } from '../helpers/temp-dir';

const codeOf = (result: PromiseSettledResult<unknown>) => (result.status === 'fulfilled' ? 'ok' : result.reason instanceof AppError ? result.reason.code : String(result.reason));

test('two POST /printers for one path while the content probe runs: one is added, the other is PRINTER_EXISTS', async () => {
  const store = new SettingsStore({ dataDir: tempDir('concurrent'), logger: silentLogger });
  const probe = () => new Promise<'zpl'>((resolve) => setImmediate(() => resolve('zpl')));
  const registry = new PrinterRegistry({ settings: store, sources: [], locate: locateManual, pathFromUri, probeContent: probe, reportedDpi: () => undefined, logger: silentLogger });
  const body = { connection: { type: 'network' as const, host: '127.0.0.1', port: 9100, protocol: 'tcp' as const } };
  const results = await Promise.allSettled([registry.add(body), registry.add(body)]);
  assert.deepEqual(results.map(codeOf).sort(), ['PRINTER_EXISTS', 'ok']);
  assert.equal(store.value.printers.length, 1);
});

test('two POST /shares with one uuid at once: one is added, the other is INVALID_REQUEST', async () => {
  const store = new SettingsStore({ dataDir: tempDir('concurrent'), logger: silentLogger });
  const post = shareRoutes(store, { shareRoot: '/mnt/shares', dataDir: tempDir('concurrent-data') }).find((r) => r.method === 'post' && r.path === '/shares')!;
  const request = { body: { sharePath: '/mnt/shares/a', uuid: 'same' } } as ApiRequest;
  const results = await Promise.allSettled([post.handler(request), post.handler(request)]);
  assert.deepEqual(results.map(codeOf).sort(), ['INVALID_REQUEST', 'ok']);
  assert.equal(store.value.shares.length, 1);
});
