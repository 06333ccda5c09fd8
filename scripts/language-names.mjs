// Finds code (not comments) outside src/languages/ that names a printer language; prints `file:line: word` for each.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Language names, word-bounded, any case (identifiers and string literals alike). */
const NAME = /\b(zpl|tspl|escpos|esc-pos|esc\/pos|epl2?|dymo)\b/gi;

/** Every .ts/.tsx/.mjs file below `dir`, except below `skip`. */
function sources(dir, skip) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (skip && full === skip) return [];
    if (statSync(full).isDirectory()) return sources(full, skip);
    return /\.(ts|tsx|mjs)$/.test(name) ? [full] : [];
  });
}

/** The text with comments blanked (line counts kept); `//` inside a string or after a colon (URLs) is left alone. */
export function withoutComments(text) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|[^:'"`\\])\/\/[^\n]*/gm, (m, before) => before + blank(m.slice(before.length)));
}

/** Every language name in code below `root` (src/languages excluded), as { file, line, word } with `file` relative to `base`. */
export function languageNames(root, base) {
  const found = [];
  for (const file of sources(root, join(root, 'languages'))) {
    const lines = withoutComments(readFileSync(file, 'utf8')).split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(NAME)) found.push({ file: relative(base, file).split(sep).join('/'), line: i + 1, word: m[1].toLowerCase() });
    });
  }
  return found;
}
