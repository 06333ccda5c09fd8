// The esbuild bundle the executables carry (firmware/bundle.mjs): ASCII only, so V8 holds its source as one byte per
// character (a single non-ASCII byte doubles it in the heap), and minified.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('the bundle is ASCII only and minified', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-test-'));
  try {
    // imported, not required: the build script ends with a top-level await
    // @ts-expect-error: plain ESM build script without type declarations
    const { buildBundle } = (await import('../../firmware/bundle.mjs')) as { buildBundle: (dir: string) => Promise<string> };
    const file = await buildBundle(dir);
    const bytes = readFileSync(file);
    assert.equal(bytes.findIndex((b) => b > 0x7f), -1, 'a byte above 0x7f');
    // 3.6 MB before minification; what V8 keeps of the source and scans at each lazy compile
    assert.ok(statSync(file).size < 2.5e6, `bundle is ${statSync(file).size} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
