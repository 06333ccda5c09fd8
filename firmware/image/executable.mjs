// The project's executable for an arch and release version, built by `npm run firmware` with that version baked in,
// and kept in .cache/image/executables by a hash of the sources it is made of, so an unchanged tree builds it once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { hashTree, imageCache, repoRoot } from './paths.mjs';

/** What the executable is made of (folders and files of the repository). */
const SOURCES = ['src', 'console/src', 'firmware/bundle.mjs', 'firmware/build-firmware.mjs', 'firmware/targets.mjs', 'firmware/console-build.mjs', 'package-lock.json'];

/** The path of the executable for `arch` (x64, arm64) reporting `version`, built when the cache has none. */
export function executableFor(arch, version) {
  const file = join(imageCache, 'executables', `printproxyd-linux-${arch}-${version}-${sourcesHash()}`);
  if (existsSync(file)) return file;
  console.log(`image: building the ${arch} executable, version ${version} (npm run firmware)`);
  execFileSync('npm', ['run', '--silent', 'firmware', '--', '--arch', arch], {
    cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PRINTPROXY_VERSION: version },
  });
  mkdirSync(join(imageCache, 'executables'), { recursive: true });
  copyFileSync(join(repoRoot, 'dist', 'firmware', `printproxyd-linux-${arch}`), `${file}.partial`);
  renameSync(`${file}.partial`, file);
  return file;
}

function sourcesHash() {
  const hash = createHash('sha256');
  for (const source of SOURCES) hashTree(hash, join(repoRoot, source));
  return hash.digest('hex').slice(0, 12);
}
