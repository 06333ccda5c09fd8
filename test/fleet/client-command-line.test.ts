// `printproxyd fleet …` arguments: flags over PRINTPROXY_FLEET_* environment, each command's arity, refusals in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine } from '../../src/cli';
import { parseFleetCommandLine } from '../../src/fleet/client/fleet-command-line';
import { contentTypeOf, printBody } from '../../src/fleet/client/fleet-print-body';

const ENV = { PRINTPROXY_FLEET_BROKER: 'mqtts://env:8883', PRINTPROXY_FLEET_CA: 'env-ca.pem', PRINTPROXY_FLEET_PREFIX: 'acme/print' };

test('printproxyd fleet … is the fleet sub-command with the rest of the arguments', () => {
  assert.deepEqual(parseCommandLine(['fleet', 'devices', '--json'], {}), { kind: 'fleet', args: ['devices', '--json'] });
});

test('the environment gives broker, files and prefix; flags win over it', () => {
  const fromEnv = parseFleetCommandLine(['devices'], ENV);
  assert.equal(fromEnv.broker, 'mqtts://env:8883');
  assert.equal(fromEnv.caFile, 'env-ca.pem');
  assert.equal(fromEnv.topicPrefix, 'acme/print');
  assert.equal(fromEnv.timeoutMs, 30_000);
  const flagged = parseFleetCommandLine(['--broker', 'mqtts://flag:8883', '--prefix', 'p/v2', '--timeout', '5000', '--json', 'devices'], ENV);
  assert.deepEqual([flagged.broker, flagged.topicPrefix, flagged.timeoutMs, flagged.json], ['mqtts://flag:8883', 'p/v2', 5000, true]);
  assert.equal(parseFleetCommandLine(['devices'], { PRINTPROXY_FLEET_BROKER: 'mqtt://b' }).topicPrefix, 'printproxy/v1');
});

test('each command takes its arguments; print takes its options anywhere', () => {
  assert.deepEqual(parseFleetCommandLine(['printers', 'ab12'], ENV).command, { name: 'printers', device: 'ab12' });
  assert.deepEqual(parseFleetCommandLine(['job', 'ab12', 'j-1'], ENV).command, { name: 'job', device: 'ab12', jobId: 'j-1' });
  assert.deepEqual(parseFleetCommandLine(['watch'], ENV).command, { name: 'watch', device: null });
  assert.deepEqual(parseFleetCommandLine(['watch', 'ab12'], ENV).command, { name: 'watch', device: 'ab12' });
  const print = parseFleetCommandLine(['print', '--no-wait', 'ab12', 'tag_x', 'a.zpl', '--idempotency-key', 'k1'], ENV).command;
  assert.deepEqual(print, { name: 'print', device: 'ab12', target: 'tag_x', file: 'a.zpl', wait: false, idempotencyKey: 'k1', title: undefined, contentType: undefined });
});

test('a missing broker, an unknown flag or command, or a wrong count of arguments is refused with the reason', () => {
  const refused = (argv: string[], env: NodeJS.ProcessEnv, reason: RegExp) => assert.throws(() => parseFleetCommandLine(argv, env), (err: Error & { code?: string }) => err.code === 'FLEET_BAD_ARGUMENT' && reason.test(err.message));
  refused(['devices'], {}, /no broker/);
  refused(['--bogus', 'devices'], ENV, /unknown flag --bogus/);
  refused(['reboot'], ENV, /unknown command reboot/);
  refused([], ENV, /no command/);
  refused(['job', 'ab12'], ENV, /job takes 2 argument/);
  refused(['watch', 'a', 'b'], ENV, /watch takes 0 to 1 argument/);
  refused(['--timeout', 'soon', 'devices'], ENV, /--timeout must be/);
  refused(['--broker'], ENV, /--broker needs a value/);
});

test('a file is sent as zpl text, pdf_base64 or raw_base64 by its name; a URL content type sends the URL', () => {
  assert.deepEqual([contentTypeOf('x.ZPL'), contentTypeOf('x.pdf'), contentTypeOf('x.bin')], ['zpl', 'pdf_base64', 'raw_base64']);
  assert.equal(printBody('/tmp/a.pdf', Buffer.from('%PDF'), { wait: true }).content, Buffer.from('%PDF').toString('base64'));
  const url = printBody('https://s3.example/label.pdf?sig=1', new Uint8Array(), { wait: false, contentType: 'pdf_url' });
  assert.deepEqual([url.content, url.contentType, url.wait, url.title], ['https://s3.example/label.pdf?sig=1', 'pdf_url', false, 'label.pdf']);
});
