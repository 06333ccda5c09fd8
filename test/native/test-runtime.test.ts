// The suite runs on the runtime scripts/run-tests.mjs says (PRINTPROXY_TEST_RUNTIME): `shipped`, the x64 executable's own
// Node 24 (firmware/targets.mjs), so the daemon under test loads uWS 20.57, the one HTTP server on the device.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currentRuntime, uwsBuildFor } from '../../src/native/uws-builds';
// @ts-expect-error: plain ESM build script without type declarations
import { target } from '../../firmware/targets.mjs';

const runtime = process.env.PRINTPROXY_TEST_RUNTIME;
const unnamed = runtime === undefined && 'not started by scripts/run-tests.mjs, which names the runtime';

test('the runtime run-tests.mjs names is the one running: the shipped Node with uWS 20.57', { skip: unnamed }, () => {
  assert.equal(runtime, 'shipped');
  assert.equal(process.version, `v${(target('x64') as { version: string }).version}`);
  assert.equal(uwsBuildFor(currentRuntime()).build.pkg, '@btc-vision/uwebsockets.js');
});
