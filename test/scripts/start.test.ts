// `npm start` (scripts/start.mjs) runs the daemon here where uWS 20.57 loads, else on the executable's Node in the Debian 13 root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { whyNotHere } from '../../scripts/start.mjs';

test('Node 20 (ABI 115) is sent to the Debian 13 root, naming its Node', () => {
  assert.equal(whyNotHere({ abi: '115', nodeVersion: 'v20.20.2', glibc: '2.41' }), 'uWS 20.57 has no build for Node v20.20.2');
});

test('Node 24 on glibc 2.36 (Debian 12) is sent to the root, naming the glibc; on 2.38 and newer it runs here', () => {
  assert.equal(whyNotHere({ abi: '137', nodeVersion: 'v24.21.0', glibc: '2.36' }), 'glibc 2.36 is older than the 2.38 uWS needs');
  assert.equal(whyNotHere({ abi: '137', nodeVersion: 'v24.21.0', glibc: '2.38' }), null);
  assert.equal(whyNotHere({ abi: '137', nodeVersion: 'v24.21.0', glibc: '2.41' }), null);
});

test('on a runtime where uWS loads, npm start runs the daemon here: --version names this Node', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'scripts', 'start.mjs'), '--version'], { encoding: 'utf8' });
  const lines = out.trim().split('\n');
  assert.equal(lines.length, 1);
  assert.equal(JSON.parse(lines[0]).node, process.versions.node);
});
