// The README's Layout names every folder of src/, and names no folder src/ lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

test('every src/ folder is in the README Layout, and every folder the Layout names exists', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const layout = /## Layout\s+```([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const named = new Set([...layout.matchAll(/src\/([a-z0-9-]+)\//g)].map((m) => m[1]));
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  assert.deepEqual(folders.filter((f) => !named.has(f)), [], 'folders missing from the Layout');
  assert.deepEqual([...named].filter((f) => !folders.includes(f)), [], 'folders in the Layout that src/ lacks');
});
