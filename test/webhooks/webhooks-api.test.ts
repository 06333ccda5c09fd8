// Webhooks against the real daemon: registration and its answers, signed in-order delivery, retries, a silent receiver, ping, filters.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { signatureValid, WebhookReceiver, type Received } from '../fixtures/webhook-receiver';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { FAST_WEBHOOKS } from './webhook-env';

const MASK = '********';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
let d: DaemonHandle;
const receivers: WebhookReceiver[] = [];
const emulators: ZplPrinterEmulator[] = [];
let settingsChanges = 0;

before(async () => {
  d = await startDaemon({ env: FAST_WEBHOOKS });
});
afterEach(async () => {
  // at most 10 webhooks: each test removes its own
  for (const hook of (await d.api('GET', '/webhooks')).body.result.content) await d.api('DELETE', `/webhooks/${hook.id}`);
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});
after(async () => {
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));
});

async function receiver(): Promise<WebhookReceiver> {
  const r = new WebhookReceiver();
  await r.start();
  receivers.push(r);
  return r;
}

async function register(body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await d.api('POST', '/webhooks', { body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.result.content;
}

async function hook(id: string): Promise<any> {
  const res = await d.api('GET', `/webhooks/${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.result.content;
}

async function addPrinter(): Promise<string> {
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  emulators.push(emulator);
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.result.content.path;
}

async function print(path: string): Promise<string> {
  const res = await d.api('POST', `/print/${path}`, { body: { content: '^XA^FDhook^FS^XZ', contentType: 'zpl' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.result.content.jobId;
}

/** Changes the alias: one device.settings event; returns the alias set. */
async function changeSettings(): Promise<string> {
  settingsChanges += 1;
  const alias = `desk ${settingsChanges}`;
  assert.equal((await d.api('PUT', '/settings', { body: { alias } })).status, 200);
  return alias;
}

/** Waits until `r` has a job.state `state` of `jobId`. */
const jobState = (r: WebhookReceiver, jobId: string, state: string) => () => r.ofType('job.state').some((x) => x.body.data.jobId === jobId && x.body.data.state === state);

function assertSigned(received: Received[], secret: string): void {
  for (const x of received) {
    assert.ok(signatureValid(secret, x.raw, x.signature), `signature of ${x.deliveryId}: ${x.signature}`);
    assert.equal(x.event, x.body.type);
  }
}

describe('registering', () => {
  test('the secret is generated when absent, shown by the POST only, and reads ******** afterwards', async () => {
    const r = await receiver();
    const generated = await register({ url: r.url });
    assert.ok(generated.secret.length >= 32 && generated.secret !== MASK, generated.secret);
    const own = await register({ url: r.url, secret: 'my-own-secret-0123456789', types: ['job.*'], printers: ['p1'] });
    assert.equal(own.secret, 'my-own-secret-0123456789');
    const read = await hook(own.id);
    assert.deepEqual({ ...read, createdAt: 'x' }, { id: own.id, url: r.url, types: ['job.*'], printers: ['p1'], secret: MASK, createdAt: 'x', pending: 0, dropped: 0, lastDelivery: null });
    const list = (await d.api('GET', '/webhooks')).body.result.content;
    assert.deepEqual(list.map((h: any) => [h.id, h.secret]).sort(), [[generated.id, MASK], [own.id, MASK]].sort());
  });

  test('a url that is not http(s), a type that matches nothing, an unknown field are 400; an unknown id is 404', async () => {
    for (const body of [{ url: 'ftp://example.com/x' }, { url: 'http://' }, { url: 'http://x.example/h', types: ['jobs.*'] }, { url: 'http://x.example/h', types: ['job.'] }, { url: 'http://x.example/h', extra: 1 }, { url: 'http://x.example/h', secret: 'short' }]) {
      const res = await d.api('POST', '/webhooks', { body });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    for (const [method, path] of [['GET', '/webhooks/nope'], ['DELETE', '/webhooks/nope'], ['POST', '/webhooks/nope/test']]) {
      const res = await d.api(method, path);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.result.message, 'Webhook not found');
    }
    assert.deepEqual((await d.api('GET', '/webhooks')).body.result.content, []);
  });

  test('a url to a link-local, multicast, unspecified or broadcast address is 400 naming url; nothing is stored', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/h', 'http://224.0.0.251/h', 'https://[ff02::1]/h', 'http://0.0.0.0/h', 'http://255.255.255.255/h', 'http://[::ffff:169.254.169.254]/h']) {
      const res = await d.api('POST', '/webhooks', { body: { url } });
      assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.result.content.message, /^url /, url);
    }
    assert.deepEqual((await d.api('GET', '/webhooks')).body.result.content, []);
  });

  test('the password of a url is masked wherever the url is shown, and still used for delivery', async () => {
    const r = await receiver();
    const url = r.url.replace('http://', 'http://user:pa55word@');
    const res = await d.api('POST', '/webhooks', { body: { url, types: ['device.settings'] } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const masked = url.replace(':pa55word@', ':***@');
    assert.equal(res.body.result.content.url, masked);
    assert.equal((await hook(res.body.result.content.id)).url, masked);
    assert.equal((await d.api('GET', '/webhooks')).body.result.content[0].url, masked);
    assert.doesNotMatch(JSON.stringify((await d.api('GET', '/webhooks')).body), /pa55word/);
    await changeSettings();
    await until('delivered with the real url', () => r.received.length === 1);
  });

  test('DELETE removes a webhook: it is gone from GET and receives nothing more; at most 10 webhooks', async () => {
    const r = await receiver();
    const gone = await register({ url: r.url });
    const removed = await d.api('DELETE', `/webhooks/${gone.id}`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.result.content.secret, MASK);
    assert.equal((await d.api('GET', `/webhooks/${gone.id}`)).status, 404);
    const ids = [];
    for (let i = 0; i < 10; i += 1) ids.push((await register({ url: r.url, types: ['device.settings'] })).id);
    const eleventh = await d.api('POST', '/webhooks', { body: { url: r.url } });
    assert.equal(eleventh.status, 400);
    await changeSettings();
    await until('each of the ten got the event', () => r.received.length === 10);
    assert.equal(new Set(r.received.map((x) => x.deliveryId)).size, 1, 'one event, one delivery id, ten webhooks');
  });
});

describe('delivery', () => {
  test('a receiver gets every event once per delivery id, in id order, signed, with <bootId>.<event id>', async () => {
    const r = await receiver();
    const { id, secret } = await register({ url: r.url });
    const path = await addPrinter();
    const jobs = [await print(path), await print(path)];
    const alias = await changeSettings();
    await until('the settings change arrived', () => r.ofType('device.settings').length > 0);
    await until('both jobs completed arrived', () => jobs.every((job) => jobState(r, job, 'completed')()));
    const ids = r.received.map((x) => x.body.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'in id order');
    assert.equal(new Set(ids).size, ids.length, 'each event once');
    const boot = new RegExp(`^(${UUID})\\.(\\d+)$`).exec(r.received[0].deliveryId)![1];
    for (const x of r.received) assert.equal(x.deliveryId, `${boot}.${x.body.id}`);
    assertSigned(r.received, secret);
    assert.ok(r.ofType('printer.added').some((x) => x.body.data.path === path));
    for (const job of jobs) assert.deepEqual(r.ofType('job.state').filter((x) => x.body.data.jobId === job).map((x) => x.body.data.state), ['queued', 'printing', 'completed']);
    assert.deepEqual(r.ofType('device.settings').at(-1)!.body.data, { changed: ['alias'] });
    assert.ok(!r.received.some((x) => x.raw.includes(alias) || x.raw.includes(d.apiKey)), 'no event carries a value of the settings or the key');
    await until('nothing pending', async () => (await hook(id)).pending === 0);
    const state = await hook(id);
    assert.equal(state.dropped, 0);
    assert.equal(state.lastDelivery.status, 200);
    assert.equal(state.lastDelivery.error, null);
  });

  test('a receiver that answers 500 three times then 200 gets the same delivery again; the next event waits for it', async () => {
    const r = await receiver();
    let flaky: string | null = null;
    r.answer = (x, earlier) => {
      flaky ??= x.deliveryId;
      return x.deliveryId === flaky && earlier < 3 ? 500 : 200;
    };
    const { id, secret } = await register({ url: r.url, types: ['device.settings'] });
    await changeSettings();
    await changeSettings();
    await until('the second event arrived', () => new Set(r.received.map((x) => x.deliveryId)).size === 2);
    const [first, second] = [r.received[0].deliveryId, r.received.at(-1)!.deliveryId];
    assert.deepEqual(r.received.map((x) => x.deliveryId), [first, first, first, first, second]);
    assert.equal(new Set(r.received.slice(0, 4).map((x) => x.raw)).size, 1, 'the same body each time');
    assertSigned(r.received, secret);
    await until('nothing pending', async () => (await hook(id)).pending === 0);
    assert.equal((await hook(id)).lastDelivery.status, 200);
  });

  test('while its receiver is down, GET shows the error and the pending count; the delivery arrives once it is up', async () => {
    const r = await receiver();
    await r.stop();
    const { id } = await register({ url: r.url, types: ['device.settings'] });
    await changeSettings();
    const failing = await until('a refused attempt is the last delivery', async () => (await hook(id)).lastDelivery?.error === 'could not get an answer').then(() => hook(id));
    assert.equal(failing.pending, 1);
    assert.equal(failing.lastDelivery.status, null);
    assert.equal(failing.lastDelivery.eventType, 'device.settings');
    await r.start();
    await until('delivered once up', async () => (await hook(id)).pending === 0);
    assert.equal(r.received.length, 1);
  });

  test('a receiver that never answers holds back its own webhook only; its attempt ends at the limit and is retried', async () => {
    const silent = await receiver();
    silent.answer = () => 'hang';
    const r = await receiver();
    const mute = await register({ url: silent.url, types: ['device.settings'] });
    await register({ url: r.url, types: ['device.settings'] });
    await changeSettings();
    await changeSettings();
    await until('the other receiver got both', () => r.received.length === 2);
    assert.equal(silent.received.length, 1, 'the silent one holds its first');
    await until('both wait in the silent one\'s outbox', async () => (await hook(mute.id)).pending === 2);
    await until('the silent attempt timed out', async () => /no answer within 1000 ms/.test((await hook(mute.id)).lastDelivery?.error ?? ''));
    await until('and it was tried again', () => silent.received.length >= 2);
    assert.ok(silent.received.every((x) => x.deliveryId === silent.received[0].deliveryId), 'the head again, not the next one');
  });
});

describe('test ping', () => {
  test('POST /webhooks/{id}/test sends a signed ping whatever the filters, and answers what the receiver said', async () => {
    const r = await receiver();
    const { id, secret } = await register({ url: r.url, types: ['job.state'] });
    const res = await d.api('POST', `/webhooks/${id}/test`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result.message, 'Ping delivered.');
    const result = res.body.result.content;
    assert.match(result.deliveryId, new RegExp(`^${UUID}\\.ping-\\d+$`));
    assert.deepEqual({ ...result, deliveryId: 'x' }, { deliveryId: 'x', delivered: true, status: 200, error: null });
    assert.equal(r.received.length, 1);
    const ping = r.received[0];
    assert.equal(ping.event, 'ping');
    assert.equal(ping.deliveryId, result.deliveryId);
    assert.deepEqual({ ...ping.body, time: 'x' }, { id: 0, type: 'ping', time: 'x', data: { webhookId: id } });
    assertSigned([ping], secret);
    assert.equal((await hook(id)).lastDelivery.deliveryId, result.deliveryId);
    r.answer = () => 500;
    const refused = await d.api('POST', `/webhooks/${id}/test`);
    assert.equal(refused.body.result.message, 'Ping not delivered.');
    assert.deepEqual({ ...refused.body.result.content, deliveryId: 'x' }, { deliveryId: 'x', delivered: false, status: 500, error: 'HTTP 500' });
    assert.equal((await hook(id)).pending, 0, 'a ping is not queued or retried');
  });
});

describe('filters', () => {
  test('types and printers: each webhook gets what it asked for, and events about no printer pass a printers filter', async () => {
    const [a, b] = [await addPrinter(), await addPrinter()];
    const [jobsOfA, someTypes, allOfB] = [await receiver(), await receiver(), await receiver()];
    await register({ url: jobsOfA.url, types: ['job.*'], printers: [a] });
    await register({ url: someTypes.url, types: ['device.settings', 'printer.updated'] });
    await register({ url: allOfB.url, printers: [b] });
    const jobA = await print(a);
    const jobB = await print(b);
    assert.equal((await d.api('PATCH', `/printers/${a}`, { body: { tags: ['dock'] } })).status, 200);
    await changeSettings();
    const lastA = await print(a);
    await until('job.* on a: the last job', jobState(jobsOfA, lastA, 'completed'));
    await until('some types: the settings change', () => someTypes.ofType('device.settings').length === 1);
    await until('all of b: the settings change', () => allOfB.ofType('device.settings').length === 1);
    assert.ok(jobsOfA.received.every((x) => x.event === 'job.state' && x.body.data.printer === a), JSON.stringify(jobsOfA.received.map((x) => x.event)));
    assert.ok(jobState(jobsOfA, jobA, 'completed')());
    assert.ok(someTypes.received.every((x) => x.event === 'printer.updated' || x.event === 'device.settings'));
    assert.ok(someTypes.ofType('printer.updated').some((x) => x.body.data.path === a && x.body.data.tags.includes('dock')));
    const printerOf = (x: Received) => x.body.data.printer ?? x.body.data.path ?? x.body.data.printerPath ?? null;
    assert.ok(allOfB.received.every((x) => printerOf(x) === b || x.event === 'device.settings'), JSON.stringify(allOfB.received.map((x) => [x.event, printerOf(x)])));
    assert.ok(jobState(allOfB, jobB, 'completed')());
  });
});

describe('openapi.json', () => {
  test('documents the webhook operations and, as a callback of the POST, the signed event delivery', async () => {
    const doc = (await d.api('GET', '/openapi.json', { key: null })).body;
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    for (const [path, method] of [['/webhooks', 'get'], ['/webhooks', 'post'], ['/webhooks/{id}', 'get'], ['/webhooks/{id}', 'delete'], ['/webhooks/{id}/test', 'post']]) assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    const delivery = doc.paths['/webhooks'].post.callbacks.event['{$request.body#/url}'].post;
    assert.deepEqual(delivery.parameters.map((p: any) => p.name), ['X-Printproxy-Event', 'X-Printproxy-Delivery', 'X-Printproxy-Signature']);
    assert.deepEqual(delivery.requestBody.content['application/json'].schema.required, ['id', 'type', 'time', 'data']);
    assert.ok(delivery.requestBody.content['application/json'].schema.properties.type.anyOf.some((t: any) => t.const === 'ping'));
  });
});
