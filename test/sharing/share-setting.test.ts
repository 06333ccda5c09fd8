// The `share` setting of printer-sharing.md on PATCH /printers/{path}: default off, validated, persisted, in openapi.json.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';

let d: DaemonHandle;
const connection = (port: number) => ({ connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' });

before(async () => {
  d = await startDaemon();
});
after(async () => {
  await d.stop();
});

test('a printer is not shared until PATCHed; share round-trips through GET and survives a restart', async () => {
  const path = (await d.api('POST', '/printers', { body: connection(9199) })).body.result.content.path;
  assert.deepEqual((await d.api('GET', `/printers/${path}`)).body.result.content.share, { ipp: false, rawPort: null });
  const patched = await d.api('PATCH', `/printers/${path}`, { body: { share: { ipp: true, rawPort: null } } });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  assert.deepEqual(patched.body.result.content.share, { ipp: true, rawPort: null });
  await d.stop();
  d = await startDaemon({ dataDir: d.dataDir });
  assert.deepEqual((await d.api('GET', `/printers/${path}`)).body.result.content.share, { ipp: true, rawPort: null });
});

test('bad share values are 400s naming the field; a raw port another printer holds is a 400 naming that printer', async () => {
  const a = (await d.api('POST', '/printers', { body: connection(9201) })).body.result.content.path;
  const b = (await d.api('POST', '/printers', { body: connection(9202) })).body.result.content.path;
  for (const share of [{ ipp: 'yes', rawPort: null }, { ipp: true }, { ipp: true, rawPort: 70000 }, { ipp: true, rawPort: null, extra: 1 }]) {
    const res = await d.api('PATCH', `/printers/${a}`, { body: { share } });
    assert.equal(res.status, 400, JSON.stringify(share));
    assert.match(res.body.result.content.message, /share/);
  }
  assert.equal((await d.api('PATCH', `/printers/${a}`, { body: { share: { ipp: false, rawPort: 19101 } } })).status, 200);
  const clash = await d.api('PATCH', `/printers/${b}`, { body: { share: { ipp: false, rawPort: 19101 } } });
  assert.equal(clash.status, 400);
  assert.match(clash.body.result.content.message, new RegExp(`rawPort 19101 .*${a}`));
});

test('openapi.json describes share on the printer and the PATCH body', async () => {
  const doc = (await d.api('GET', '/openapi.json', { key: null })).body;
  const text = JSON.stringify(doc);
  assert.match(text, /"share":\{[^}]*"ipp"/);
  assert.match(text, /rawPort/);
});
