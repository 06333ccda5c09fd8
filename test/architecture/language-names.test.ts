// No code outside src/languages/ names a printer language (the table does): the check finds a planted name, then src/
// and the console hold none but the seed API's document vocabulary.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers/temp-dir';

const ROOT = resolve(__dirname, '..', '..');

type Found = { file: string; line: number; word: string };

async function check(): Promise<{ languageNames: (root: string, base: string) => Found[] }> {
  return import(join(ROOT, 'scripts', 'language-names.mjs'));
}

/** Files allowed one word, each for one reason: the seed API's words, not a switch on a language. */
const ALLOWED: Record<string, { word: string; reason: string }> = {
  'src/schemas/document-format.ts': { word: 'zpl', reason: "the DocumentFormat 'zpl' is the seed API's document vocabulary" },
  'src/http/print-request.ts': { word: 'zpl', reason: "the seed contentTypes 'zpl' and 'zpl_base64' and their DocumentFormat" },
  'src/fleet/client/fleet-print-body.ts': { word: 'zpl', reason: "the fleet CLI sends a .zpl file as the seed contentType 'zpl'" },
  'src/fleet/client/fleet-command-line.ts': { word: 'zpl', reason: 'the fleet CLI usage names its .zpl file extension' },
  'console/src/document-file.ts': { word: 'zpl', reason: "a .zpl file is sent as the seed contentType 'zpl_base64'" },
  'console/src/print-page.tsx': { word: 'zpl', reason: 'the print form accepts .zpl documents (the seed document vocabulary)' },
};

/** The names found that no allow-list line covers. */
function unexplained(found: Found[]): string[] {
  return found.filter((f) => ALLOWED[f.file]?.word !== f.word).map((f) => `${f.file}:${f.line}: ${f.word}`);
}

test('the check finds names planted in code (identifier, string, any case) and skips comments and src/languages', async () => {
  const { languageNames } = await check();
  const root = tempDir('language-names');
  mkdirSync(join(root, 'a'));
  mkdirSync(join(root, 'languages'));
  writeFileSync(join(root, 'a', 'one.ts'), "// zpl in a comment\n/* TSPL here too */\nconst url = 'https://x/y';\nif (content === 'Zpl') run();\nconst escposWidth = 1;\nconst dymo = 2;\n");
  writeFileSync(join(root, 'languages', 'two.ts'), "export const name = 'zpl';\n");
  assert.deepEqual(languageNames(root, root), [
    { file: 'a/one.ts', line: 4, word: 'zpl' },
    { file: 'a/one.ts', line: 6, word: 'dymo' },
  ]);
});

test('src/ outside src/languages/ names no language but the allowed seed vocabulary', async () => {
  const { languageNames } = await check();
  assert.deepEqual(unexplained(languageNames(join(ROOT, 'src'), ROOT)), []);
});

test('the console names no language but the allowed seed vocabulary (it reads GET /languages)', async () => {
  const { languageNames } = await check();
  assert.deepEqual(unexplained(languageNames(join(ROOT, 'console', 'src'), ROOT)), []);
});
