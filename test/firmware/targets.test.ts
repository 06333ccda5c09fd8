// The firmware targets (firmware/targets.mjs): one Node 24 for both shipped arches, armv7 refused with its reason, and
// every shipped arch smoke-tested by `npm run test:firmware`, which `.ci/run` runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
// @ts-expect-error: plain ESM build script without type declarations
import { SHIPPED_ARCHES, target } from '../../firmware/targets.mjs';

const ROOT = resolve(__dirname, '..', '..');

test('x64 and arm64 carry the same Node 24 (ABI 137, so uWS 20.57)', () => {
  const [x64, arm64] = ['x64', 'arm64'].map((arch) => target(arch) as { version: string; abi: string });
  assert.match(x64.version, /^24\./);
  assert.equal(arm64.version, x64.version);
  assert.deepEqual([x64.abi, arm64.abi], ['137', '137']);
});

test('armv7 is not built: asking for it says why and what to use instead', () => {
  assert.throws(() => target('armv7'), /armv7 is no longer built: .*20\.11\.0.*use an arm64 board/);
});

test('npm run test:firmware smoke-tests every shipped arch, and .ci/run runs it', () => {
  assert.deepEqual(SHIPPED_ARCHES, ['x64', 'arm64']);
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const arches = /PRINTPROXY_FIRMWARE_ARCHES=(\S+)/.exec(scripts['test:firmware'])?.[1].split(',');
  assert.deepEqual(arches, SHIPPED_ARCHES);
  assert.match(readFileSync(join(ROOT, '.ci', 'run'), 'utf8'), /^part 'test:firmware' npm run test:firmware/m);
});
