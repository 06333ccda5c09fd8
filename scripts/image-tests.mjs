// npm run test:image: builds the stand-in image of each qemu board (npm run image; a second run with nothing changed
// reuses it) and the next release's bundle the update tests install, one after the other since they share the bundle step, then runs test/image/ on the host's Node: the
// Buildroot tree's static checks, and each image booted under qemu (two guests at once at most). Prints each part's time.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildImage } from '../firmware/image/build-image.mjs';
import { BOARDS } from '../firmware/image/boards.mjs';
import { nextPatchVersion, releaseBuildDir } from '../firmware/image/paths.mjs';

// the release the update tests install
const newer = nextPatchVersion(JSON.parse(readFileSync('package.json', 'utf8')).version);
let failed = false;
for (const board of Object.keys(BOARDS)) {
  const started = Date.now();
  try {
    buildImage({ board });
    buildImage({ board, version: newer, out: releaseBuildDir(board, newer) });
  } catch (error) {
    console.error(`test:image: the ${board} image did not build: ${error.message}`);
    failed = true;
  }
  console.log(`# image ${board}: ${Math.round((Date.now() - started) / 1000)} s`);
}
const started = Date.now();
const status = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'test/image/'], { stdio: 'inherit' }).status ?? 1;
console.log(`# image tests: ${Math.round((Date.now() - started) / 1000)} s, status ${status}`);
process.exit(failed || status !== 0 ? 1 : 0);
