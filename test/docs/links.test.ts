// The README and docs/ hold together: every relative link in README.md and docs/*.md names a file of the repository
// that exists, and its `#anchor` a heading of the target (GitHub's slugs); every `npm run <script>` (and `npm start`,
// `npm test`) they name is a script of package.json; README.md stays a quick start of at most 200 lines.
// The checker is first run on planted faults, so a broken link or a missing script is seen to fail.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers/temp-dir';

const ROOT = resolve(__dirname, '..', '..');

/** Most lines README.md may have (issue 37: the README is a quick start, the rest is in docs/). */
const README_MAX_LINES = 200;

/** One line of a Markdown file: its number (from 1), its text, and whether it is inside a fenced code block. */
interface MarkdownLine {
  n: number;
  text: string;
  fenced: boolean;
}

/** The lines of `text`, each marked when it belongs to a fenced code block (the fence lines included). */
function markdownLines(text: string): MarkdownLine[] {
  const out: MarkdownLine[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((text, i) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === null && open) {
      fence = open[1];
      out.push({ n: i + 1, text, fenced: true });
      return;
    }
    if (fence !== null) {
      if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(text)) fence = null;
      out.push({ n: i + 1, text, fenced: true });
      return;
    }
    out.push({ n: i + 1, text, fenced: false });
  });
  return out;
}

/** `line` without its inline code spans (a link written inside backticks is not a link). */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, '');
}

/** GitHub's anchor of a heading's text: lower case, punctuation and symbols dropped, each space a hyphen. */
function slug(heading: string): string {
  const plain = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, ''); // inline HTML
  return plain.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor the headings of a Markdown text get, duplicates numbered as GitHub numbers them (`x`, `x-1`, …). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const add = (heading: string) => {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  };
  const lines = markdownLines(text);
  lines.forEach((line, i) => {
    if (line.fenced) return;
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line.text);
    if (atx) return add(atx[1] ?? '');
    const before = lines[i - 1];
    // a setext heading: a line of text underlined with = or -
    if (/^ {0,3}(=+|-+)\s*$/.test(line.text) && before && !before.fenced && before.text.trim() !== '' && !/^ {0,3}([-*+]|#|>|\|)/.test(before.text)) {
      add(before.text);
    }
  });
  return out;
}

/** A link found in a Markdown file: where it is and what it points to. */
interface FoundLink {
  line: number;
  target: string;
}

/** The links of a Markdown text (inline links, images and reference definitions), outside code blocks and code spans. */
function links(text: string): FoundLink[] {
  const out: FoundLink[] = [];
  for (const line of markdownLines(text)) {
    if (line.fenced) continue;
    const prose = withoutCodeSpans(line.text);
    for (const m of prose.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      out.push({ line: line.n, target: m[1].replace(/^<|>$/g, '') });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(prose);
    if (definition) out.push({ line: line.n, target: definition[1].replace(/^<|>$/g, '') });
  }
  return out;
}

/** What is wrong with the relative links of `file` (a Markdown file under `root`), one sentence each. */
function linkProblems(root: string, file: string): string[] {
  const problems: string[] = [];
  const name = relative(root, file);
  for (const { line, target } of links(readFileSync(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // a URL: not checked here
    const hash = target.indexOf('#');
    const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const where = `${name}:${line} → ${target}`;
    const resolved = path === '' ? file : path.startsWith('/') ? join(root, path) : resolve(dirname(file), path);
    if (resolved !== root && !resolved.startsWith(root + sep)) {
      problems.push(`${where}: outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where}: ${relative(root, resolved)} does not exist`);
      continue;
    }
    if (anchor === null) continue;
    if (statSync(resolved).isDirectory()) {
      problems.push(`${where}: an anchor on a folder`);
    } else if (resolved.endsWith('.md')) {
      if (!anchors(readFileSync(resolved, 'utf8')).has(anchor)) problems.push(`${where}: no heading of ${relative(root, resolved)} has the anchor #${anchor}`);
    } else if (!/^L\d+(-L\d+)?$/.test(anchor)) {
      problems.push(`${where}: #${anchor} is not a line anchor of ${relative(root, resolved)}`);
    }
  }
  return problems;
}

/** Every npm script a Markdown text names (`npm run X`, `npm start`, `npm test`), code blocks included, with its line. */
function npmScripts(text: string): { line: number; script: string }[] {
  const out: { line: number; script: string }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\bnpm\s+run(?:-script)?\s+([^\s`'"(),;|&]+)/g)) out.push({ line: i + 1, script: m[1].replace(/[.:]+$/, '') });
    for (const m of line.matchAll(/\bnpm\s+(start|test)\b(?!-)/g)) out.push({ line: i + 1, script: m[1] });
  });
  return out;
}

/** The npm scripts `file` names that `scripts` (package.json's) lacks, one sentence each. */
function scriptProblems(root: string, file: string, scripts: Record<string, string>): string[] {
  return npmScripts(readFileSync(file, 'utf8'))
    .filter(({ script }) => !Object.hasOwn(scripts, script))
    .map(({ line, script }) => `${relative(root, file)}:${line}: npm script "${script}" is not in package.json`);
}

/** README.md and every Markdown file under docs/. */
function documentationFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
  return [join(ROOT, 'README.md'), ...(existsSync(docs) ? walk(docs) : [])];
}

test('anchors are GitHub slugs, duplicates numbered', () => {
  assert.equal(slug('PDF → ZPL rendering (`render.ts`, `cups.ts`)'), 'pdf--zpl-rendering-renderts-cupsts');
  assert.equal(slug('Beyond decisions.md'), 'beyond-decisionsmd');
  assert.equal(slug('The fleet side: `printproxyd fleet …` and the library'), 'the-fleet-side-printproxyd-fleet--and-the-library');
  assert.equal(slug('USB_KERNEL and [a link](x.md)'), 'usb_kernel-and-a-link');
  assert.deepEqual([...anchors('# A\n\n## A\n\n```\n# not a heading\n```\n\nB b\n---\n')], ['a', 'a-1', 'b-b']);
});

test('the checker finds planted faults: a missing file, a wrong anchor, a link out of the tree, a missing script', () => {
  const root = tempDir('docs-links');
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'b.md'), '# Title\n\n## Two words\n');
  writeFileSync(join(root, 'a.md'), [
    '# A',
    'Good: [b](docs/b.md), [two](docs/b.md#two-words), [self](#a), [web](https://example.com/x.md), [folder](docs/).',
    'Bad: [gone](docs/gone.md), [anchor](docs/b.md#three), [out](../elsewhere.md).',
    'Not links: `[code](nowhere.md)` and',
    '```',
    '[fenced](nowhere.md)',
    'npm run build',
    '```',
    'Run `npm run nope -- --x`, then `npm test`.',
  ].join('\n'));
  assert.deepEqual(linkProblems(root, join(root, 'a.md')), [
    'a.md:3 → docs/gone.md: docs/gone.md does not exist',
    'a.md:3 → docs/b.md#three: no heading of docs/b.md has the anchor #three',
    'a.md:3 → ../elsewhere.md: outside the repository',
  ]);
  assert.deepEqual(scriptProblems(root, join(root, 'a.md'), { build: 'x', test: 'y' }), ['a.md:9: npm script "nope" is not in package.json']);
  assert.deepEqual(scriptProblems(root, join(root, 'a.md'), { build: 'x', nope: 'y' }), ['a.md:9: npm script "test" is not in package.json']);
});

test(`README.md is a quick start: at most ${README_MAX_LINES} lines, linking every docs/ page`, () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.endsWith('\n') ? readme.split('\n').length - 1 : readme.split('\n').length;
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; at most ${README_MAX_LINES}`);
  const linked = new Set(links(readme).map(({ target }) => resolve(ROOT, target.split('#')[0])));
  const pages = documentationFiles().slice(1);
  assert.ok(pages.length > 0, 'docs/ has no pages');
  assert.deepEqual(pages.filter((page) => !linked.has(page)).map((page) => relative(ROOT, page)), [], 'docs/ pages README.md does not link');
});

test('every relative link in README.md and docs/ resolves, anchors included', () => {
  const files = documentationFiles();
  const count = files.reduce((sum, file) => sum + links(readFileSync(file, 'utf8')).length, 0);
  assert.ok(count > 0, 'no links found: the checker reads nothing');
  assert.deepEqual(files.flatMap((file) => linkProblems(ROOT, file)), []);
});

test('every npm script README.md and docs/ name is in package.json', () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const files = documentationFiles();
  assert.ok(files.some((file) => npmScripts(readFileSync(file, 'utf8')).length > 0), 'no npm script found: the checker reads nothing');
  assert.deepEqual(files.flatMap((file) => scriptProblems(ROOT, file, scripts)), []);
});
