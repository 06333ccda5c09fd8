// Integration tests of the management API against the real daemon on port 0.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { DEVICE_ERROR_CODES } from '../../src/errors';

let d: DaemonHandle;

before(async () => {
  d = await startDaemon();
});
after(async () => {
  await d.stop();
});

/** The schema of property `name`, the first found anywhere inside `schema`. */
function propertyOf(schema: unknown, name: string): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const found = (schema as { properties?: Record<string, unknown> }).properties?.[name];
  if (found) return found;
  for (const value of Object.values(schema)) {
    const inner = propertyOf(value, name);
    if (inner) return inner;
  }
  return undefined;
}

/** Adds every `const` value found inside `schema` to `into`; a `type: null` branch adds null. */
function collectConsts(schema: unknown, into: Set<string | null>): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as { const?: string; type?: string };
  if (node.const !== undefined) into.add(node.const);
  if (node.type === 'null') into.add(null);
  for (const value of Object.values(schema)) collectConsts(value, into);
}

function assertEnvelope(res: { status: number; body: any }, status: number, module: string, message?: string): void {
  assert.equal(res.status, status);
  assert.equal(res.body.statusCode, status);
  assert.equal(res.body.status, status < 400 ? 'success' : 'error');
  assert.equal(res.body.result.module, module);
  assert.equal(typeof res.body.result.message, 'string');
  assert.ok('content' in res.body.result, 'result.content is present');
  if (message !== undefined) assert.equal(res.body.result.message, message);
}

describe('every operation in openapi.json requires the key', () => {
  test('401 with no key and with a wrong key, on every operation but the public ones (openapi.json, GET/POST /setup, GET /health)', async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).body;
    const publicOps: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (ops[method].security?.length === 0) {
          publicOps.push(`${method.toUpperCase()} ${path}`);
          continue;
        }
        const concrete = path.replace(/\{\w+\}/g, 'x');
        // each operation comes from its own loopback address, so the brute-force limit is not reached
        const localAddress = `127.0.1.${checked + 1}`;
        for (const key of [null, 'wrong-key']) {
          const res = await d.api(method.toUpperCase(), concrete, { key, localAddress, body: ['get', 'delete'].includes(method) ? undefined : {} });
          assertEnvelope(res, 401, concrete, 'Unauthorized');
          assert.deepEqual(res.body.result.content, { message: 'Missing or invalid API key' });
        }
        checked += 1;
      }
    }
    assert.ok(checked >= 15, `checked ${checked} operations`);
    for (const op of ['GET /openapi.json', 'GET /setup', 'POST /setup']) assert.ok(publicOps.includes(op), `${op} is public`);
    // the only other public operation is the health gate's readiness check
    assert.deepEqual(publicOps.filter((op) => !/^(GET \/openapi\.json|GET \/setup|POST \/setup|GET \/health)$/.test(op)), []);
  });
});

describe('GET /status', () => {
  test('answers every seed 2.6 field with real values', async () => {
    const res = await d.api('GET', '/status');
    assertEnvelope(res, 200, '/status', 'Successfully obtained device status.');
    const c = res.body.result.content;
    for (const f of ['uptime', 'load']) assert.equal(typeof c[f], 'number', f);
    for (const f of ['totalMemory', 'freeMemory']) assert.ok(Number.isInteger(c[f]) && c[f] > 0, f);
    assert.ok(c.freeMemory <= c.totalMemory);
    for (const f of ['version', 'ipAddress', 'buildVersion', 'hostname', 'domain']) assert.equal(typeof c[f], 'string', f);
    assert.match(c.builtAt, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(c.ipAddress, /^[0-9a-f.:]+$/i);
    assert.deepEqual(c.extensions, []);
  });
});

describe('printers', () => {
  test('add, get by path and URI, patch tags, list, delete', async () => {
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: 1, protocol: 'tcp' }, content: 'zpl', tags: ['Shipping'] } });
    assertEnvelope(added, 201, '/printers');
    const printer = added.body.result.content;
    assert.equal(printer.path, 'tcp_127-0-0-1_1');
    assert.match(printer.id, /^[A-Z0-9]{8}$/);
    assert.equal(printer.type, 'printer');
    assert.equal(printer.discovered, false);
    assert.deepEqual(printer.tags, ['Shipping']);
    assert.ok(['online', 'offline', 'error', 'unknown'].includes(printer.status));

    const byPath = await d.api('GET', '/printers/tcp_127-0-0-1_1');
    assertEnvelope(byPath, 200, '/printers/tcp_127-0-0-1_1', 'Printer retrieved.');
    assert.equal(byPath.body.result.content.id, printer.id);
    const uri = encodeURIComponent('tcp://127.0.0.1:1');
    const byUri = await d.api('GET', `/printers/${uri}`);
    assertEnvelope(byUri, 200, `/printers/${uri}`, 'Printer retrieved.');
    assert.equal(byUri.body.result.content.path, 'tcp_127-0-0-1_1');

    const dup = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: 1, protocol: 'tcp' } } });
    assertEnvelope(dup, 409, '/printers', 'Printer already exists');

    const patched = await d.api('PATCH', '/printers/tcp_127-0-0-1_1', { body: { tags: ['dock', 'DOCK', 'front'], model: 'ZD421' } });
    assertEnvelope(patched, 200, '/printers/tcp_127-0-0-1_1');
    assert.deepEqual(patched.body.result.content.tags, ['dock', 'front']);
    assert.equal(patched.body.result.content.model, 'ZD421');

    const list = await d.api('GET', '/printers');
    assertEnvelope(list, 200, '/printers', 'Successfully obtained printers.');
    assert.ok(list.body.result.content.some((p: any) => p.path === 'tcp_127-0-0-1_1'));

    // the list is served from one serialization while nothing changes: a change shows on the very next read
    const again = await d.api('GET', '/printers');
    assert.deepEqual(again.body, list.body);
    await d.api('PATCH', '/printers/tcp_127-0-0-1_1', { body: { tags: ['after'] } });
    const changed = await d.api('GET', '/printers');
    assert.deepEqual(changed.body.result.content.find((p: any) => p.path === 'tcp_127-0-0-1_1').tags, ['after']);

    const removed = await d.api('DELETE', '/printers/tcp_127-0-0-1_1');
    assertEnvelope(removed, 200, '/printers/tcp_127-0-0-1_1');
    const listed = await d.api('GET', '/printers');
    assert.equal(listed.body.result.content.some((p: any) => p.path === 'tcp_127-0-0-1_1'), false);
    const gone = await d.api('GET', '/printers/tcp_127-0-0-1_1');
    assertEnvelope(gone, 404, '/printers/tcp_127-0-0-1_1', 'Printer not found');
  });

  test('404 body exactly as seed 7', async () => {
    const res = await d.api('GET', '/printers/usb_sn_NOPE');
    assert.deepEqual(res.body, {
      status: 'error',
      statusCode: 404,
      result: { module: '/printers/usb_sn_NOPE', message: 'Printer not found', content: { message: 'No printer at path: usb_sn_NOPE' } },
    });
  });

  test('400 names the bad field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ connection: { type: 'network', host: 'h', protocol: 'tcp', port: 70000 } }, 'connection.port must be an integer >= 1 and <= 65535'],
      [{ connection: { type: 'network', protocol: 'tcp' } }, 'connection.host is required'],
      [{ connection: { type: 'network', host: 'h', protocol: 'lpd' } }, 'connection.protocol must be one of tcp, ipp, ipps, http, https'],
      [{ connection: { type: 'network', host: 'h', protocol: 'tcp' }, tags: ['ok', 'no spaces'] }, 'tags[1] must be a string in the expected format'],
      [{ connection: { type: 'network', host: 'h', protocol: 'tcp' }, colour: 'red' }, 'colour is not an allowed field'],
      ...['-', '...', '\uFFFD\uFFFD', 'a\u0000b', 'two words', 'a/b', '-lead.example', 'x_y.local'].map((host): [unknown, string] => [{ connection: { type: 'network', host, protocol: 'tcp' } }, 'connection.host must be a hostname or an IP address']),
      [{ connection: { type: 'network', host: ':::::', protocol: 'tcp' } }, 'connection.host is not a valid IPv6 address'],
      [{ connection: { type: 'network', host: '300.1.1.1', protocol: 'tcp' } }, 'connection.host is not a valid IPv4 address'],
    ];
    for (const [body, message] of cases) {
      const res = await d.api('POST', '/printers', { body });
      assertEnvelope(res, 400, '/printers', 'Invalid request');
      assert.equal(res.body.result.content.message, message);
    }
  });

  test('hostnames, IPv4 and IPv6 literals (bracketed or not) are taken, each at a path of its own', async () => {
    const paths = new Set<string>();
    for (const host of ['printer-7.example.com', 'Zebra.local.', '10.20.30.40', 'fe80::1', '[2001:db8::7]', '::ffff:10.0.0.1']) {
      const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host, protocol: 'tcp', port: 9 }, content: 'raw' } });
      assert.equal(res.status, 201, `${host}: ${JSON.stringify(res.body)}`);
      paths.add(res.body.result.content.path);
      assert.equal((await d.api('DELETE', `/printers/${res.body.result.content.path}`)).status, 200);
    }
    assert.equal(paths.size, 6);
  });

  test('malformed JSON, wrong media type, unknown route', async () => {
    const bad = await d.api('POST', '/printers', { raw: '{"connection":', headers: { 'Content-Type': 'application/json' } });
    assertEnvelope(bad, 400, '/printers', 'Invalid request');
    assert.match(bad.body.result.content.message, /^body is not valid JSON/);
    const text = await d.api('POST', '/printers', { raw: 'hello', headers: { 'Content-Type': 'text/plain' } });
    assertEnvelope(text, 415, '/printers', 'Unsupported media type');
    const octet = await d.api('POST', '/printers', { raw: 'hello' });
    assertEnvelope(octet, 415, '/printers', 'Unsupported media type');
    const unknown = await d.api('GET', '/nothing-here');
    assertEnvelope(unknown, 404, '/nothing-here', 'Not found');
  });

  test('GET /discover scans and answers content null (seed 4.4); GET /printers lists the result', async () => {
    const res = await d.api('GET', '/discover');
    assertEnvelope(res, 200, '/discover', 'Successfully discovered printers.');
    assert.equal(res.body.result.content, null);
    const list = await d.api('GET', '/printers');
    assert.ok(Array.isArray(list.body.result.content));
  });
});

describe('settings, shares, extensions', () => {
  test('settings read masked and update', async () => {
    const res = await d.api('GET', '/settings');
    assertEnvelope(res, 200, '/settings');
    const c = res.body.result.content;
    assert.equal(c.apiKey, '****' + d.apiKey.slice(-4));
    for (const f of ['extensions', 'shares', 'printers']) assert.ok(Array.isArray(c[f]), f);
    assert.equal(typeof c.subDomain, 'string');
    assert.equal(typeof c.alias, 'string');
    const put = await d.api('PUT', '/settings', { body: { alias: 'Front desk', allowedOrigins: ['https://erp.example'] } });
    assertEnvelope(put, 200, '/settings');
    assert.equal(put.body.result.content.alias, 'Front desk');
    assert.deepEqual(put.body.result.content.allowedOrigins, ['https://erp.example']);
    const bad = await d.api('PUT', '/settings', { body: { maxBodyBytes: 'big' } });
    assertEnvelope(bad, 400, '/settings', 'Invalid request');
    assert.equal(bad.body.result.content.message, 'maxBodyBytes must be an integer >= 1024 and <= 1073741824');
    await d.api('PUT', '/settings', { body: { allowedOrigins: ['*'] } });
  });

  test('CORS follows allowedOrigins and answers the private-network preflight', async () => {
    await d.api('PUT', '/settings', { body: { allowedOrigins: ['https://erp.example'] } });
    const pre = await fetch(`${d.baseUrl}/api/v1/printers`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://erp.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Private-Network': 'true' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'https://erp.example');
    assert.equal(pre.headers.get('access-control-allow-private-network'), 'true');
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /X-API-Key/);
    const other = await d.api('GET', '/status', { headers: { Origin: 'https://evil.example' } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    const allowed = await d.api('GET', '/status', { headers: { Origin: 'https://erp.example' } });
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://erp.example');
    await d.api('PUT', '/settings', { body: { allowedOrigins: ['*'] } });
  });

  test('shares CRUD with masked passwords', async () => {
    const created = await d.api('POST', '/shares', { body: { sharePath: '/mnt/shares/labels', server: 'nas', username: 'u', password: 'secret' } });
    assertEnvelope(created, 201, '/shares');
    const share = created.body.result.content;
    assert.equal(share.password, '********');
    assert.match(share.uuid, /^[0-9a-f-]{36}$/);
    const list = await d.api('GET', '/shares');
    assertEnvelope(list, 200, '/shares');
    assert.deepEqual(list.body.result.content, [share]);
    const put = await d.api('PUT', `/shares/${share.uuid}`, { body: { sharePath: '/mnt/shares/other', password: '********', browsable: true } });
    assertEnvelope(put, 200, `/shares/${share.uuid}`);
    assert.equal(put.body.result.content.sharePath, '/mnt/shares/other');
    for (const sharePath of ['/', '/mnt/shares', 'labels', '/mnt/shares/../etc', '/etc']) {
      const outside = await d.api('PUT', `/shares/${share.uuid}`, { body: { sharePath } });
      assertEnvelope(outside, 400, `/shares/${share.uuid}`, 'Invalid request');
      assert.match(outside.body.result.content.message, /^sharePath /, sharePath);
      const posted = await d.api('POST', '/shares', { body: { sharePath } });
      assertEnvelope(posted, 400, '/shares', 'Invalid request');
      assert.match(posted.body.result.content.message, /^sharePath /, sharePath);
    }
    assert.equal((await d.api('GET', '/shares')).body.result.content[0].sharePath, '/mnt/shares/other', 'a refused PUT changes nothing');
    const missing = await d.api('PUT', '/shares/nope', { body: { sharePath: '/x' } });
    assertEnvelope(missing, 404, '/shares/nope', 'Share not found');
    const bad = await d.api('POST', '/shares', { body: { alias: 'x' } });
    assertEnvelope(bad, 400, '/shares', 'Invalid request');
    assert.equal(bad.body.result.content.message, 'sharePath is required');
    const del = await d.api('DELETE', `/shares/${share.uuid}`);
    assertEnvelope(del, 200, `/shares/${share.uuid}`);
    assert.deepEqual((await d.api('GET', '/shares')).body.result.content, []);
  });

  test('extension settings replace and mask secrets', async () => {
    const ext = [{ name: 'netbird', enabled: false, instances: [{ oidcPath: '/oidc', clientId: 'c', clientSecret: 's3cret', target: 'http://x/print', logicalPrinterId: 'lp', tag: 'dock', startOnBoot: true, id: 1 }] }];
    const put = await d.api('PUT', '/extensions/settings', { body: ext });
    assertEnvelope(put, 200, '/extensions/settings');
    assert.equal(put.body.result.content[0].instances[0].clientSecret, '********');
    const get = await d.api('GET', '/extensions/settings');
    assertEnvelope(get, 200, '/extensions/settings');
    assert.equal(get.body.result.content[0].instances[0].clientId, 'c');
    const bad = await d.api('PUT', '/extensions/settings', { body: [{ name: 'netbird', enabled: 'yes', instances: [] }] });
    assertEnvelope(bad, 400, '/extensions/settings', 'Invalid request');
    assert.equal(bad.body.result.content.message, '[0].enabled must be a boolean');
  });

  test('a body over maxBodyBytes is 413', async () => {
    await d.api('PUT', '/settings', { body: { maxBodyBytes: 2048 } });
    const res = await d.api('POST', '/shares', { body: { sharePath: 'x'.repeat(4096) } });
    assertEnvelope(res, 413, '/shares', 'Payload too large');
    assert.match(res.body.result.content.message, /2048 bytes/);
    await d.api('PUT', '/settings', { body: { maxBodyBytes: 64 * 1024 * 1024 } });
  });
});

describe('openapi.json', () => {
  test('is public, OpenAPI 3.1, version 2.0.0 and valid', async () => {
    const res = await fetch(`${d.baseUrl}/api/v1/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as any;
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '2.0.0');
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  test("lists every operation of the seed's endpoint table", async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).body;
    // seed-api.md section 4, the endpoint table
    const seed = [['get', '/status'], ['get', '/printers'], ['get', '/printers/{path}'], ['get', '/discover'], ['post', '/print/{target}'], ['post', '/print/{target}/test'], ['get', '/jobs/{jobId}'], ['get', '/settings'], ['get', '/shares'], ['get', '/extensions/settings']];
    for (const [method, path] of seed) assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} is in openapi.json`);
  });

  test('shows the additive errorCode, the image content types and paperWidth', async () => {
    const text = JSON.stringify((await d.api('GET', '/openapi.json', { key: null })).body);
    for (const word of ['"errorCode"', '"image_base64"', '"image_url"', '"paperWidth"']) assert.ok(text.includes(word), `${word} is in openapi.json`);
  });

  test("a job's errorCode is an enum of every device code of the catalogue, or null", async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).body;
    const job = doc.paths['/jobs/{jobId}'].get.responses['200'].content['application/json'].schema;
    const errorCode = propertyOf(job, 'errorCode');
    const codes = new Set<string | null>();
    collectConsts(errorCode, codes);
    assert.deepEqual([...codes].sort(), [...DEVICE_ERROR_CODES, null].sort());
  });

  test('describes the events WebSocket (x-websockets) with the event object', async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).body;
    const events = doc['x-websockets']?.['/events'];
    assert.ok(events, 'x-websockets./events');
    assert.match(events.description, /"type":"hello"/);
    assert.deepEqual(events.message.properties.type.anyOf.map((t: { const: string }) => t.const).sort(), ['device.settings', 'job.printed', 'job.state', 'printer.added', 'printer.removed', 'printer.status', 'printer.updated', 'system.update']);
  });

  test('says that completed means the printer\'s connection accepted every byte, not that paper came out', async () => {
    const text = JSON.stringify((await d.api('GET', '/openapi.json', { key: null })).body);
    assert.match(text, /`completed` means every byte was accepted by the printer's connection/);
    assert.match(text, /when the printer's connection had accepted every byte \(not when paper came out\)/);
  });
});

describe('order of checks', () => {
  test('a malformed path parameter is 401 without the key and 400 naming the parameter with it', async () => {
    const bad = '/printers/%E0%A4%A';
    const anonymous = await d.api('GET', bad, { key: null, localAddress: '127.0.2.1' });
    assertEnvelope(anonymous, 401, bad, 'Unauthorized');
    const keyed = await d.api('GET', bad);
    assertEnvelope(keyed, 400, bad, 'Invalid request');
    assert.match(keyed.body.result.content.message, /path/);
  });
});
