// Builds the web console (console/src) into hashed JS and CSS plus index.html, in memory; measures them gzipped against the budget.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** Most the console's JS and CSS may weigh gzipped, in bytes (the 150 KB). */
export const CONSOLE_BUDGET_BYTES = 150 * 1024;

/** The page that loads the bundle: absolute asset paths, so deep links (/printers/x) served index.html still load them. */
function indexHtml(js, css) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>printproxyd</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/${css}">
<script type="module" src="/${js}"></script>
</head>
<body><div id="app"></div></body>
</html>
`;
}

/** Builds the console; resolves with its files (name → bytes) and the gzipped size of its JS and CSS in bytes. */
export async function buildConsole() {
  const result = await build({
    entryPoints: [join(root, 'console', 'src', 'main.tsx')],
    outdir: join(root, 'dist', 'console'),
    entryNames: 'app-[hash]',
    bundle: true,
    write: false,
    format: 'esm',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const files = {};
  let gzipBytes = 0;
  for (const out of result.outputFiles) {
    files[basename(out.path)] = Buffer.from(out.contents);
    gzipBytes += gzipSync(out.contents, { level: 9 }).length;
  }
  const names = Object.keys(files);
  const js = names.find((n) => n.endsWith('.js'));
  const css = names.find((n) => n.endsWith('.css'));
  if (!js || !css) throw new Error(`console build gave ${names.join(', ')}: expected one .js and one .css`);
  files['index.html'] = Buffer.from(indexHtml(js, css));
  return { files, gzipBytes };
}

/** Replaces `dir` with the console's files. */
export function writeConsole(files, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
}

/** Builds, prints the gzipped size, and fails above the budget; resolves with the files. */
export async function buildConsoleChecked() {
  const { files, gzipBytes } = await buildConsole();
  const kb = (gzipBytes / 1024).toFixed(1);
  console.log(`console: ${kb} KB of JS and CSS gzipped (budget ${CONSOLE_BUDGET_BYTES / 1024} KB)`);
  if (gzipBytes > CONSOLE_BUDGET_BYTES) throw new Error(`the console weighs ${kb} KB gzipped, over its budget of ${CONSOLE_BUDGET_BYTES / 1024} KB`);
  return files;
}
