// `npm start`'s first step (the `prestart` script): builds the web console into dist/console when it is missing or older
// than its sources, so a fresh clone answers the console at `/` instead of 404. Without esbuild (npm ci --omit=dev) it
// says so and lets the daemon start without a console.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Why the console under `root` must be built (a sentence), or null when dist/console is newer than every source. */
export function staleReason(root) {
  const index = join(root, 'dist', 'console', 'index.html');
  if (!existsSync(index)) return 'dist/console is missing';
  const builtAt = statSync(index).mtimeMs;
  const sources = [...files(join(root, 'console', 'src')), join(root, 'firmware', 'console-build.mjs')];
  const newer = sources.find((file) => existsSync(file) && statSync(file).mtimeMs > builtAt);
  return newer ? `${relative(root, newer)} is newer than dist/console` : null;
}

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Builds dist/console under ROOT when stale; resolves with what it did, in words. */
export async function ensureConsole() {
  const reason = staleReason(ROOT);
  if (!reason) return 'console: dist/console is up to date';
  let build;
  try {
    build = await import('../firmware/console-build.mjs');
  } catch (err) {
    return `console: not built (${reason}) and it cannot be here: ${err instanceof Error ? err.message : String(err)}; the daemon starts without it`;
  }
  const started = Date.now();
  build.writeConsole(await build.buildConsoleChecked(), join(ROOT, 'dist', 'console'));
  return `console: built into dist/console in ${Date.now() - started} ms (${reason})`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // a console that fails to build must not keep the daemon from starting: say why, and let `npm start` go on
  ensureConsole().then(
    (done) => console.log(done),
    (err) => console.error(`console: the build failed, the daemon starts without it: ${err instanceof Error ? err.message : String(err)}`),
  );
}
