// The suite runs on the runtime scripts/run-tests.mjs says (PRINTPROXY_TEST_RUNTIME): `shipped` is the x64 executable's
// own Node 24 (firmware/targets.mjs), so the daemon under test loads uWS 20.57; `host` is Node 20 with uWS 20.30. The
// HTTP/1 front stands before uWS on both (uWS closes a connection that pipelines behind a pending answer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frontForRuntime } from '../../src/http/http1-front';
import { silentLogger } from '../../src/log';
import { currentRuntime, uwsBuildFor } from '../../src/native/uws-builds';
// @ts-expect-error: plain ESM build script without type declarations
import { target } from '../../firmware/targets.mjs';

const runtime = process.env.PRINTPROXY_TEST_RUNTIME;
const unnamed = runtime === undefined && 'not started by scripts/run-tests.mjs, which names the runtime';

test('the runtime run-tests.mjs names is the one running, with its uWS build and front', { skip: unnamed }, () => {
  const { build } = uwsBuildFor(currentRuntime());
  if (runtime === 'shipped') {
    assert.equal(process.version, `v${(target('x64') as { version: string }).version}`);
    assert.equal(build.pkg, '@btc-vision/uwebsockets.js');
    assert.ok(frontForRuntime(silentLogger));
  } else {
    assert.equal(runtime, 'host');
    assert.equal(process.versions.modules, '115');
    assert.equal(build.pkg, '@trufflesuite/uws-js-unofficial');
    assert.ok(frontForRuntime(silentLogger));
  }
});
