// The uWS build is chosen by the running Node's ABI: uWS 20.57's addon for 127 (Node 22), 137 (Node 24) or 141 (Node 25);
// any other (Node 20's 115 among them) is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UnsupportedRuntimeError } from '../../src/errors';
import { UWS_BUILDS, uwsBuildFor } from '../../src/native/uws-builds';
import { dlopenNative } from '../../src/native/load-native';

test('Node 24 (ABI 137) gets uWS 20.57, by file name', () => {
  const node24 = uwsBuildFor({ nodeVersion: 'v24.21.0', abi: '137', platform: 'linux', arch: 'arm64' });
  assert.equal(node24.fileName, 'uws_linux_arm64_137.node');
  assert.equal(node24.build.pkg, '@btc-vision/uwebsockets.js');
});

test('any other ABI (Node 20) is refused with a message naming the Node, its ABI and the Nodes that work', () => {
  assert.throws(
    () => uwsBuildFor({ nodeVersion: 'v20.20.2', abi: '115', platform: 'linux', arch: 'x64' }),
    (err: unknown) => err instanceof UnsupportedRuntimeError && err.message === 'no uWebSockets.js build for Node v20.20.2 (ABI 115): printproxyd runs on Node 22 (ABI 127), Node 24 (ABI 137), Node 25 (ABI 141)',
  );
});

test('Node 24 on armv7 is refused: its uWS build has no arm addon', () => {
  assert.throws(
    () => uwsBuildFor({ nodeVersion: 'v24.21.0', abi: '137', platform: 'linux', arch: 'arm' }),
    (err: unknown) => err instanceof UnsupportedRuntimeError && err.message === 'no uWebSockets.js build for Node v24.21.0 (ABI 137) on arm: @btc-vision/uwebsockets.js has x64, arm64',
  );
});

test('every build in the table is installed with a Linux addon for each arch it lists', () => {
  for (const [abi, build] of Object.entries(UWS_BUILDS)) {
    const folder = join(dirname(require.resolve(build.pkg)), build.folderFromMain);
    for (const arch of build.arches) {
      const { fileName } = uwsBuildFor({ nodeVersion: `v${build.nodeMajor}`, abi, platform: 'linux', arch });
      assert.ok(existsSync(join(folder, fileName)), `${build.pkg} lacks ${fileName}`);
    }
  }
});

const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;
const olderThan238 = glibc !== undefined && Number(glibc.split('.')[1]) < 38;

test('an addon built for a newer glibc than this one fails naming the glibc it needs', { skip: !olderThan238 && `glibc ${glibc} loads it` }, () => {
  // uWS 20.57's Node 20 build, linked against glibc 2.38 like its Node 24 one
  const file = join(dirname(require.resolve('@btc-vision/uwebsockets.js')), `uws_linux_${process.arch}_115.node`);
  assert.throws(() => dlopenNative(file), { message: new RegExp(`^cannot load native ${file}: .*GLIBC_2\\.38' not found.* \\(this build needs glibc 2\\.38 or newer; see docs/runtimes\\.md\\)$`, 's') });
});
