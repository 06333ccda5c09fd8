// `printproxyd --version` names this build and the Node it runs on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

test('--version prints one JSON line with our version and the running Node version', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts'), '--version'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const printed = JSON.parse(run.stdout) as Record<string, string>;
  assert.equal(printed.version, pkg.version);
  assert.equal(printed.buildVersion, `${pkg.version}-dev`);
  assert.equal(printed.node, process.versions.node);
  assert.equal(run.stdout.trim().split('\n').length, 1);
});
