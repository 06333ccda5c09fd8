// Restarts, crashes, shutdown, brute-force limiting and the netbird extension, against the real daemon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers/temp-dir';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';
import net from 'node:net';
import { until } from '../helpers/until';
import { unreadByServer } from '../helpers/tcp-sockets';
import { startDaemon, tempDataDir } from '../helpers/daemon-process';

test('a restart with the same data dir keeps printers, tags, settings, shares, extensions and the key', async () => {
  const dataDir = tempDataDir();
  const first = await startDaemon({ dataDir, apiKey: null });
  // the console's page when a console is built, else the route
  await until('where to set the key is announced', () => /^(open http:\/\/\S+:\d+\/ to set the API key|no API key is set: POST http:\/\/\S+\/api\/v1\/setup .*)$/m.test(first.stdout()));
  const claimKey = 'claimed-key-0123456789abcdef';
  assert.equal((await first.api('POST', '/setup', { key: null, body: { apiKey: claimKey } })).status, 201);
  await first.api('POST', '/printers', { key: claimKey, body: { connection: { type: 'network', host: '127.0.9.10', protocol: 'tcp' }, content: 'zpl', tags: ['dock'] } });
  await first.api('PUT', '/settings', { key: claimKey, body: { alias: 'Warehouse', subDomain: 'wh1' } });
  await first.api('POST', '/shares', { key: claimKey, body: { sharePath: '/mnt/shares/s', password: 'pw', uuid: 'share-1' } });
  await first.api('PUT', '/extensions/settings', { key: claimKey, body: [{ name: 'netbird', enabled: false, instances: [] }] });
  const regenerated = await first.api('POST', '/settings/api-key', { key: claimKey });
  const newKey: string = regenerated.body.result.content.apiKey;
  assert.notEqual(newKey, claimKey);
  assert.equal(await first.stop(), 0);

  const second = await startDaemon({ dataDir, apiKey: null });
  try {
    // the IPP port is announced after the claim line would be
    await until('the IPP port is announced', () => second.ippPort() !== null);
    assert.doesNotMatch(second.stdout(), /to set the API key|no API key is set/, 'a device with a stored key is claimed');
    assert.equal((await second.api('POST', '/setup', { key: null, body: { apiKey: 'another-key-0123456789abcdef' } })).status, 409);
    assert.equal((await second.api('GET', '/status', { key: claimKey })).status, 401);
    const settings = await second.api('GET', '/settings', { key: newKey });
    assert.equal(settings.status, 200);
    const c = settings.body.result.content;
    assert.equal(c.alias, 'Warehouse');
    assert.equal(c.subDomain, 'wh1');
    assert.equal(c.shares[0].uuid, 'share-1');
    assert.equal(c.extensions[0].name, 'netbird');
    const printer = await second.api('GET', '/printers/tcp_127-0-9-10_9100', { key: newKey });
    assert.equal(printer.status, 200);
    assert.deepEqual(printer.body.result.content.tags, ['dock']);
    assert.equal(printer.body.result.content.content, 'zpl');
  } finally {
    await second.stop();
  }
});

test('SIGKILL in the middle of a settings write loop leaves a complete, valid state', async () => {
  const dataDir = tempDataDir();
  const first = await startDaemon({ dataDir });
  let written = 0;
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const res = await first.api('PUT', '/settings', { body: { alias: `alias-${written + 1}-${'x'.repeat(200)}` } }).catch(() => null);
      if (!res || res.status !== 200) break;
      written += 1;
    }
  })();
  await until('40 settings writes answered', () => written >= 40);
  await first.stop('SIGKILL');
  stop = true;
  await loop;

  const raw = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
  assert.match(raw.alias, /^alias-\d+-x{200}$/);
  const second = await startDaemon({ dataDir });
  try {
    const res = await second.api('GET', '/settings');
    assert.equal(res.status, 200);
    const n = Number(/^alias-(\d+)-/.exec(res.body.result.content.alias)?.[1]);
    assert.ok(n >= written, `the last acknowledged write (${written}) survived, found ${n}`);
  } finally {
    await second.stop();
  }
});

test('a corrupt settings.json falls back to the previous good copy', async () => {
  const dataDir = tempDataDir();
  const first = await startDaemon({ dataDir });
  await first.api('PUT', '/settings', { body: { alias: 'one' } });
  await first.api('PUT', '/settings', { body: { alias: 'two' } });
  await first.stop();
  writeFileSync(join(dataDir, 'settings.json'), '{"version":1,"alias":"tw');
  const second = await startDaemon({ dataDir });
  try {
    const alias = (await second.api('GET', '/settings')).body.result.content.alias;
    assert.equal(alias, 'one');
  } finally {
    await second.stop();
  }
});

test('more than 20 wrong keys from one address get 429 with Retry-After, for that address only', async () => {
  const d = await startDaemon();
  try {
    for (let i = 0; i < 21; i += 1) {
      const res = await d.api('GET', '/status', { key: `wrong-${i}`, localAddress: '127.0.2.1' });
      assert.equal(res.status, 401);
    }
    const blocked = await d.api('GET', '/status', { localAddress: '127.0.2.1' });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.result.message, 'Too many requests');
    const retry = Number(blocked.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    const other = await d.api('GET', '/status', { localAddress: '127.0.2.2' });
    assert.equal(other.status, 200);
  } finally {
    await d.stop();
  }
});

test('SIGTERM finishes an answer already in flight and exits 0', async () => {
  const d = await startDaemon();
  const body = JSON.stringify({ sharePath: '/mnt/shares/in-flight' });
  const req = http.request({ host: '127.0.0.1', port: d.port, method: 'POST', path: '/api/v1/shares', agent: false, headers: { 'X-API-Key': d.apiKey, 'Content-Type': 'application/json', 'Content-Length': String(body.length) } });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 5));
  const socket = await new Promise<net.Socket>((resolve) => req.once('socket', resolve));
  if (socket.connecting) await new Promise((resolve) => socket.once('connect', resolve));
  // the server has read the request and the first bytes of its body when SIGTERM arrives; the rest follows once it stopped listening
  await until('the daemon read the request head and 5 body bytes', () => unreadByServer(d.port, socket.localPort!) === 0);
  const exited = new Promise<number | null>((resolve) => d.proc.once('exit', (code) => resolve(code)));
  d.proc.kill('SIGTERM');
  await until('the daemon stopped listening', () => refused(d.port));
  req.end(body.slice(5));
  assert.equal(await answer, 201);
  assert.equal(await exited, 0);
});

test('an enabled netbird extension reports `netbird status --json`, and active:false without the binary', async () => {
  const bin = tempDir('fake-netbird');
  const status = {
    daemonVersion: '0.36.5', cliVersion: '0.36.5', fqdn: 'dev.netbird.cloud', netbirdIp: '100.92.1.7/16', usesKernelInterface: true,
    management: { url: 'https://api.netbird.io:443', connected: true }, signal: { url: 'https://signal.netbird.io:443', connected: true },
    relays: { total: 3, available: 2 }, peers: { total: 4, connected: 3 }, quantumResistance: false, lazyConnectionEnabled: false,
    networks: ['10.10.0.0/24'], forwardingRules: 0, dnsServers: [{}],
  };
  writeFileSync(join(bin, 'netbird'), `#!/bin/sh\necho '${JSON.stringify(status)}'\n`);
  chmodSync(join(bin, 'netbird'), 0o755);
  const withBinary = await startDaemon({ env: { PATH: `${bin}:${process.env.PATH}` } });
  const without = await startDaemon({ env: { PATH: '/nonexistent' } });
  try {
    const ext = [{ name: 'netbird', enabled: true, instances: [{ oidcPath: '', clientId: '', clientSecret: '', target: '', logicalPrinterId: '', tag: '', startOnBoot: true, id: 7 }] }];
    for (const d of [withBinary, without]) await d.api('PUT', '/extensions/settings', { body: ext });
    const a = (await withBinary.api('GET', '/status')).body.result.content.extensions;
    assert.equal(a[0].name, 'netbird');
    assert.equal(a[0].instances[0].id, 7);
    assert.equal(a[0].instances[0].active, true);
    assert.equal(a[0].instances[0].overlay_ip, '100.92.1.7/16');
    assert.equal(a[0].instances[0].fqdn, 'dev.netbird.cloud');
    assert.equal(a[0].instances[0].peers_count, '3/4 Connected');
    assert.equal(a[0].instances[0].interface_type, 'Kernel');
    const b = (await without.api('GET', '/status')).body.result.content.extensions;
    assert.equal(b[0].instances[0].active, false);
    assert.equal(b[0].instances[0].overlay_ip, '');
  } finally {
    await withBinary.stop();
    await without.stop();
  }
});

test('HTTPS answers with a self-signed certificate generated on first start and kept', async () => {
  const dataDir = tempDataDir();
  const first = await startDaemon({ dataDir, args: ['--https-port', '0'] });
  const fingerprint = async (port: number) =>
    new Promise<string>((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port, path: '/api/v1/status', headers: { 'X-API-Key': first.apiKey }, rejectUnauthorized: false }, (res) => {
        assert.equal(res.statusCode, 200);
        const cert = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
        res.resume();
        res.on('end', () => resolve(cert.fingerprint256));
      });
      req.on('error', reject);
      req.end();
    });
  const httpsPort = async (d: typeof first) => {
    const announced = () => /listening on https:\/\/[^:]+:(\d+)/.exec(d.stdout());
    await until('the HTTPS listener is announced', () => announced() !== null);
    return Number(announced()![1]);
  };
  const port1 = await httpsPort(first);
  const before = await fingerprint(port1);
  await first.stop();
  const second = await startDaemon({ dataDir, args: ['--https-port', '0'] });
  try {
    const port2 = await httpsPort(second);
    assert.equal(await fingerprint(port2), before);
  } finally {
    await second.stop();
  }
});

/** Whether a new connection to `port` on 127.0.0.1 is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect({ host: '127.0.0.1', port });
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', () => resolve(true));
  });
}

test('PRINTPROXY_V8_FLAGS reaches V8 in the daemon (here --trace-gc: its collections are printed)', async () => {
  const d = await startDaemon({ env: { PRINTPROXY_V8_FLAGS: '--trace-gc' } });
  try {
    await until('V8 printed a collection', async () => {
      await d.api('GET', '/printers');
      return /: (Scavenge|Mark-Compact)/.test(d.stdout());
    }, 60_000);
  } finally {
    await d.stop();
  }
});

test('SIGTERM right after the `listening on http` line, while the later doors still start, stops the daemon cleanly (exit 0)', async () => {
  // HTTPS on: its certificate is made after the http line, so the signal comes while the start is still going on
  for (let i = 0; i < 3; i += 1) {
    const d = await startDaemon({ args: ['--https-port', '0'] });
    assert.equal(await d.stop(), 0, 'exit 0, not killed by the signal');
  }
});
