// Import cycles among the production files of a source folder: between its top-level folders (a
// file directly in it counts as a folder of its own, e.g. config.ts) and between files. Specs,
// suites, fixtures and the test folders are left out: only what ships is layered.
// Usage: node tools/scripts/check-cycles.mjs <src-dir> [--allow=<file>] [--strict]
// Exit 1 when a cycle is not in the allow-list (one cycle a line, as printed: `folder: a -> b -> a`,
// `file: x.ts -> y.ts -> x.ts`; `#` comments); --strict also fails on allow-listed lines no longer seen.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpecifiers, isRelative, resolveRelative } from './import-specifiers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Test code, never part of the layers: specs, storage suites, fixtures and the folders that hold harnesses. */
export const TEST_FILE = /\.(spec|suite)\.tsx?$|-fixture\.ts$/;
export const TEST_FOLDER = new Set(['e2e', 'testing', 'test', 'suites', 'fuzz', '__mocks__']);

export function isTestPath(relative) {
  const segments = relative.split(/[\\/]/);
  return TEST_FILE.test(relative) || segments.slice(0, -1).some((segment) => TEST_FOLDER.has(segment));
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** Production files of `srcDir` (relative paths) and their relative imports of one another. */
export function productionGraph(srcDir) {
  const files = [...sourceFiles(srcDir)].map((file) => path.relative(srcDir, file)).filter((file) => !isTestPath(file)).sort();
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, new Set()]));
  for (const file of files) {
    const text = readFileSync(path.join(srcDir, file), 'utf8');
    for (const { specifier } of importSpecifiers(text)) {
      if (!isRelative(specifier)) continue;
      const target = resolveRelative(path.join(srcDir, file), specifier);
      const relative = target && path.relative(srcDir, target);
      if (relative && known.has(relative) && relative !== file) edges.get(file).add(relative);
    }
  }
  return edges;
}

/** The folder a file belongs to: its first path segment, or the file itself when it sits at the top. */
export const folderOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);

/** Strongly connected components (Tarjan), each sorted; only those of more than one node. */
function components(graph) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (start) => {
    // Iterative, so a long import chain cannot overflow the stack.
    const work = [[start, [...(graph.get(start) ?? [])], 0]];
    indices.set(start, index);
    lowlinks.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (frame[2] < next.length) {
        const target = next[frame[2]++];
        if (!indices.has(target)) {
          indices.set(target, index);
          lowlinks.set(target, index++);
          stack.push(target);
          onStack.add(target);
          work.push([target, [...(graph.get(target) ?? [])], 0]);
        } else if (onStack.has(target)) lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        lowlinks.set(parent, Math.min(lowlinks.get(parent), lowlinks.get(node)));
      }
      if (lowlinks.get(node) === indices.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) found.push(component.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return found;
}

/**
 * One short cycle through each edge of a component that closes one: for every edge a → b inside
 * it, the shortest way back from b to a. Enough to name every upward import without listing the
 * exponentially many elementary cycles of a tangled component.
 */
function cyclesOf(graph, component) {
  const inside = new Set(component);
  const cycles = new Map();
  const shortestPath = (from, to) => {
    const previous = new Map([[from, undefined]]);
    const queue = [from];
    while (queue.length > 0) {
      const node = queue.shift();
      if (node === to) break;
      for (const next of [...(graph.get(node) ?? [])].sort()) {
        if (!inside.has(next) || previous.has(next)) continue;
        previous.set(next, node);
        queue.push(next);
      }
    }
    if (!previous.has(to)) return undefined;
    const route = [];
    for (let node = to; node !== undefined; node = previous.get(node)) route.unshift(node);
    return route;
  };
  for (const from of component) {
    for (const to of graph.get(from) ?? []) {
      if (!inside.has(to)) continue;
      const back = shortestPath(to, from);
      if (!back) continue;
      const cycle = [from, ...back.slice(0, -1)];
      // The same cycle found from another of its edges is written once, from its smallest node.
      const first = cycle.indexOf([...cycle].sort()[0]);
      const rotated = [...cycle.slice(first), ...cycle.slice(0, first)];
      cycles.set(rotated.join(' -> '), rotated);
    }
  }
  return [...cycles.values()].map((cycle) => [...cycle, cycle[0]].join(' -> ')).sort();
}

/** Folder cycles and file cycles of `srcDir`, each line as the allow-list writes it, and one import behind each folder edge. */
export function findCycles(srcDir) {
  const files = productionGraph(srcDir);
  const folders = new Map();
  const example = new Map();
  for (const [file, targets] of files) {
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      if (!folders.has(from)) folders.set(from, new Set());
      folders.get(from).add(to);
      if (!example.has(`${from} -> ${to}`)) example.set(`${from} -> ${to}`, `${file} -> ${target}`);
    }
  }
  const folderCycles = components(folders).flatMap((component) => cyclesOf(folders, component)).map((cycle) => `folder: ${cycle}`);
  const fileCycles = components(files).flatMap((component) => cyclesOf(files, component)).map((cycle) => `file: ${cycle}`);
  return { cycles: [...folderCycles, ...fileCycles], example };
}

function readAllowList(file) {
  if (!file) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

function main() {
  const args = process.argv.slice(2);
  const srcArg = args.find((arg) => !arg.startsWith('--'));
  const allowArg = args.find((arg) => arg.startsWith('--allow='))?.slice('--allow='.length);
  const strict = args.includes('--strict');
  if (!srcArg) {
    console.error('usage: check-cycles.mjs <src-dir> [--allow=<file>] [--strict]');
    process.exit(2);
  }
  const srcDir = path.resolve(root, srcArg);
  const allowed = new Set(readAllowList(allowArg && path.resolve(root, allowArg)));
  const { cycles, example } = findCycles(srcDir);
  const seen = new Set(cycles);
  const fresh = cycles.filter((cycle) => !allowed.has(cycle));
  const known = cycles.filter((cycle) => allowed.has(cycle));
  const gone = [...allowed].filter((cycle) => !seen.has(cycle));
  const label = path.relative(root, srcDir);

  const withImports = (cycle) => {
    if (!cycle.startsWith('folder: ')) return `  ${cycle}`;
    const nodes = cycle.slice('folder: '.length).split(' -> ');
    const steps = nodes.slice(0, -1).map((node, at) => `      ${example.get(`${node} -> ${nodes[at + 1]}`)}`);
    return [`  ${cycle}`, ...steps].join('\n');
  };
  if (known.length > 0) console.log(`${label}: ${known.length} known cycles (allow-listed in ${allowArg}, to be removed):\n${known.map(withImports).join('\n')}`);
  if (gone.length > 0) console.log(`${label}: ${gone.length} allow-listed cycles are gone — delete their lines from ${allowArg}:\n${gone.map((cycle) => `  ${cycle}`).join('\n')}`);
  if (fresh.length > 0) {
    console.error(`${label}: ${fresh.length} new import cycles (an import points back up; move the shared piece down instead):\n${fresh.map(withImports).join('\n')}`);
  }
  if (cycles.length === 0) console.log(`${label}: no import cycles between folders or files`);
  process.exit(fresh.length > 0 || (strict && gone.length > 0) ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
