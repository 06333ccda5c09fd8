// Runs every test/**/*.test.ts file with node:test, TypeScript loaded through tsx.
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = collect('test').filter((f) => filter.length === 0 || filter.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// the console's browser tests save a screenshot of each page at each width here
const screenshots = resolve(process.env.PRINTPROXY_SCREENSHOT_DIR || join('.tmp', 'console-screenshots'));
console.log(`console screenshots: ${screenshots}`);
const env = { ...process.env, PRINTPROXY_SCREENSHOT_DIR: screenshots };
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
