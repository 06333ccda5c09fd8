// `npm start` builds the console first when dist/console is missing or older than its sources (scripts/ensure-console.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir';
// @ts-expect-error: a plain .mjs script without types
import { staleReason } from '../../scripts/ensure-console.mjs';
import pkg from '../../package.json';

function checkout(): string {
  const root = tempDir('ensure-console');
  mkdirSync(join(root, 'console', 'src', 'deep'), { recursive: true });
  writeFileSync(join(root, 'console', 'src', 'main.tsx'), '');
  writeFileSync(join(root, 'console', 'src', 'deep', 'page.tsx'), '');
  return root;
}

function built(root: string, at: Date): void {
  mkdirSync(join(root, 'dist', 'console'), { recursive: true });
  writeFileSync(join(root, 'dist', 'console', 'index.html'), '');
  utimesSync(join(root, 'dist', 'console', 'index.html'), at, at);
}

test('a checkout without dist/console is stale', () => {
  assert.equal(staleReason(checkout()), 'dist/console is missing');
});

test('a build newer than every source is current; a source edited after it makes it stale, naming the file', () => {
  const root = checkout();
  const past = new Date(Date.now() - 60_000);
  for (const f of ['main.tsx', join('deep', 'page.tsx')]) utimesSync(join(root, 'console', 'src', f), past, past);
  built(root, new Date());
  assert.equal(staleReason(root), null);
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, 'console', 'src', 'deep', 'page.tsx'), later, later);
  assert.equal(staleReason(root), `${join('console', 'src', 'deep', 'page.tsx')} is newer than dist/console`);
});

test('npm start runs the check first (prestart)', () => {
  assert.equal((pkg as { scripts: Record<string, string> }).scripts.prestart, 'node scripts/ensure-console.mjs');
});
