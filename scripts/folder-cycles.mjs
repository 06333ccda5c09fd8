// Finds import cycles between src/ folders (value imports; type-only ones are erased) (a top-level file counts as a folder of its own); exits 1 naming them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// type-only imports and exports (`import type`, `export type`) are erased by the compiler: they order no module loading
const IMPORT = /(?:^|\s)(?:import|export)\s(?!type\s)[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every .ts file below `dir`. */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** The folder (first path segment below src, or the file itself at top level) a file belongs to. */
function folderOf(root, file) {
  const [first] = relative(root, file).split(sep);
  return first.replace(/\.ts$/, '');
}

/** Edges folder → folders it imports from, with one example import each. */
export function folderGraph(root) {
  const graph = new Map();
  for (const file of sources(root)) {
    const from = folderOf(root, file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(root + sep)) continue;
      const to = folderOf(root, target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, `${relative(root, file)} → ${spec}`);
    }
  }
  return graph;
}

/** Strongly connected groups of more than one folder (Tarjan). */
export function cycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const groups = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index += 1;
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return groups;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(process.argv[2] ?? 'src');
  const graph = folderGraph(root);
  const found = cycles(graph);
  for (const group of found) {
    console.log(`cycle between folders: ${group.join(', ')}`);
    for (const from of group) for (const [to, example] of graph.get(from) ?? []) if (group.includes(to)) console.log(`  ${from} → ${to}: ${example}`);
  }
  if (found.length === 0) console.log('no import cycle between src/ folders');
  process.exit(found.length === 0 ? 0 : 1);
}
