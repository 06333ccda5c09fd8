// No import cycle between src/ folders: the check finds a planted cycle, and src/ has none.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers/temp-dir';

const ROOT = resolve(__dirname, '..', '..');

async function check(): Promise<{ folderGraph: (root: string) => Map<string, Map<string, string>>; cycles: (graph: Map<string, Map<string, string>>) => string[][] }> {
  return import(join(ROOT, 'scripts', 'folder-cycles.mjs'));
}

test('the check finds a cycle planted between two folders, through a dynamic import too', async () => {
  const { folderGraph, cycles } = await check();
  const root = tempDir('folder-cycles');
  for (const dir of ['a', 'b', 'c']) mkdirSync(join(root, dir));
  writeFileSync(join(root, 'a', 'one.ts'), "import { two } from '../b/two';\nexport const one = two;\n");
  writeFileSync(join(root, 'b', 'two.ts'), "export const two = 2;\nexport const lazy = () => import('../a/one');\n");
  writeFileSync(join(root, 'c', 'three.ts'), "import { one } from '../a/one';\nexport const three = one;\n");
  assert.deepEqual(cycles(folderGraph(root)), [['a', 'b']]);
});

test('a type-only import back (erased by the compiler) makes no cycle; a value one does', async () => {
  const { folderGraph, cycles } = await check();
  const root = tempDir('folder-cycles-types');
  for (const dir of ['a', 'b']) mkdirSync(join(root, dir));
  writeFileSync(join(root, 'a', 'one.ts'), "import { two } from '../b/two';\nexport type One = number;\nexport const one = two;\n");
  writeFileSync(join(root, 'b', 'two.ts'), "import type { One } from '../a/one';\nexport const two: One = 2;\n");
  assert.deepEqual(cycles(folderGraph(root)), []);
  writeFileSync(join(root, 'b', 'two.ts'), "import { type One, one } from '../a/one';\nexport const two: One = 2;\nexport const back = () => one;\n");
  assert.deepEqual(cycles(folderGraph(root)), [['a', 'b']]);
});

test('src/ has no import cycle between its folders', async () => {
  const { folderGraph, cycles } = await check();
  const graph = folderGraph(join(ROOT, 'src'));
  assert.ok(graph.size > 5, 'the graph was read');
  const found = cycles(graph).map((group) => group.map((from) => `${from} → ${[...(graph.get(from)?.keys() ?? [])].filter((to) => group.includes(to)).join('/')}`).join('; '));
  assert.deepEqual(found, []);
});
