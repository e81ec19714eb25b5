// Moves files with `git mv` and rewrites every relative import that pointed at a moved file — in
// the whole repository, and the moved files' own imports of what stayed — so a reorganisation is
// one command and one reviewable diff.
//
//   node tools/scripts/move-files.mjs [--dry-run] <source>... <destination>
//       like mv: one file or folder to a new name, or several into the folder <destination>
//   node tools/scripts/move-files.mjs [--dry-run] --keep-under=<base> <source>... <destination>
//       each source keeps its path below <base>: with --keep-under=apps/server/src,
//       apps/server/src/storage/suites/a.suite.ts lands at <destination>/storage/suites/a.suite.ts
//
// Sources are files or folders (every tracked file below them), as the shell expands them. What
// it cannot rewrite it prints: `__dirname`-relative paths in moved files whose depth changed, and
// other files that spell a moved path out (project.json, tsconfig includes, scripts, docs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpecifiers, isRelative, resolveRelative } from './import-specifiers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const TEXT_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|json|md|ya?ml|txt|sh)$/;

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
const toPosix = (file) => file.split(path.sep).join('/');
const repoRelative = (file) => toPosix(path.relative(root, file));

function usage(message) {
  if (message) console.error(`move-files: ${message}`);
  console.error('usage: move-files.mjs [--dry-run] [--keep-under=<base>] <source>... <destination>');
  process.exit(2);
}

/** Tracked files at or below `source` (absolute paths). */
function trackedFiles(source) {
  return git('ls-files', '-z', '--', repoRelative(source))
    .split('\0')
    .filter(Boolean)
    .map((file) => path.join(root, file));
}

/** old absolute path → new absolute path, for every tracked file that moves. */
export function planMoves(sources, destination, keepUnder) {
  const moves = new Map();
  const destinationIsFolder = keepUnder !== undefined || sources.length > 1 || (existsSync(destination) && statSync(destination).isDirectory());
  for (const source of sources) {
    if (!existsSync(source)) usage(`${repoRelative(source)} does not exist`);
    const files = trackedFiles(source);
    if (files.length === 0) usage(`${repoRelative(source)} holds no tracked file`);
    const sourceIsFolder = statSync(source).isDirectory();
    for (const file of files) {
      let target;
      if (keepUnder !== undefined) {
        const below = path.relative(keepUnder, file);
        if (below.startsWith('..')) usage(`${repoRelative(file)} is not below --keep-under=${repoRelative(keepUnder)}`);
        target = path.join(destination, below);
      } else {
        const landing = destinationIsFolder ? path.join(destination, path.basename(source)) : destination;
        target = sourceIsFolder ? path.join(landing, path.relative(source, file)) : landing;
      }
      if (moves.has(file) && moves.get(file) !== target) usage(`${repoRelative(file)} is named twice`);
      if (existsSync(target)) usage(`${repoRelative(target)} already exists`);
      moves.set(file, target);
    }
  }
  return moves;
}

/** The specifier that names `target` from `fromFile`, written the way `original` named its old place (extension, folder index). */
export function respecify(fromFile, target, original, oldTarget, oldFromFile) {
  const written = path.resolve(path.dirname(oldFromFile), original);
  // What resolution added to the written path: '', '.ts', '/index.ts', …
  const added = oldTarget.startsWith(written) ? oldTarget.slice(written.length) : path.extname(oldTarget);
  const bare = target.endsWith(added) ? target.slice(0, target.length - added.length) : target.slice(0, target.length - path.extname(target).length);
  let specifier = toPosix(path.relative(path.dirname(fromFile), bare));
  if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  if (specifier === './') specifier = '.';
  return specifier.replace(/\/$/, '');
}

/** New contents of every file whose relative imports change: new path → text. */
export function rewriteImports(moves, repoFiles, read = (file) => readFileSync(file, 'utf8')) {
  const movedOld = new Set(moves.keys());
  const exists = (file) => movedOld.has(file) || (existsSync(file) && statSync(file).isFile());
  const rewritten = new Map();
  let count = 0;
  for (const oldFile of repoFiles) {
    if (!SOURCE_FILE.test(oldFile)) continue;
    const newFile = moves.get(oldFile) ?? oldFile;
    const text = read(oldFile);
    const edits = [];
    for (const { specifier, start, end } of importSpecifiers(text)) {
      if (!isRelative(specifier)) continue;
      const oldTarget = resolveRelative(oldFile, specifier, exists);
      if (!oldTarget) continue;
      const newTarget = moves.get(oldTarget) ?? oldTarget;
      if (newFile === oldFile && newTarget === oldTarget) continue;
      const next = respecify(newFile, newTarget, specifier, oldTarget, oldFile);
      if (next !== specifier) edits.push({ start, end, next });
    }
    if (edits.length === 0) continue;
    let result = text;
    for (const edit of edits.sort((left, right) => right.start - left.start)) result = result.slice(0, edit.start) + edit.next + result.slice(edit.end);
    rewritten.set(newFile, result);
    count += edits.length;
  }
  return { rewritten, count };
}

/** What the script leaves to a person: paths built from __dirname in moved files, and moved paths spelt out elsewhere. */
function leftovers(moves, repoFiles, movedFolders) {
  const notes = [];
  for (const [oldFile, newFile] of moves) {
    if (!SOURCE_FILE.test(oldFile)) continue;
    const depthChanged = path.dirname(oldFile).split(path.sep).length !== path.dirname(newFile).split(path.sep).length;
    if (!depthChanged) continue;
    readFileSync(oldFile, 'utf8')
      .split('\n')
      .forEach((line, at) => {
        if (/__dirname|import\.meta\.(url|dirname)|rootDir/.test(line)) notes.push(`${repoRelative(newFile)}:${at + 1}: a path relative to the file, now at another depth: ${line.trim()}`);
      });
  }
  const needles = [...[...moves.keys()].map(repoRelative), ...movedFolders.map(repoRelative)].map((needle) => needle.replace(/\.tsx?$/, ''));
  for (const file of repoFiles) {
    if (!TEXT_FILE.test(file) || moves.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const needle of needles) {
      const at = text.indexOf(needle);
      if (at === -1) continue;
      // A folder's name is also the start of a sibling's (src/e2e vs src/e2e-x): require a boundary.
      const after = text[at + needle.length] ?? '';
      if (/[\w-]/.test(after)) continue;
      const line = text.slice(0, at).split('\n').length;
      notes.push(`${repoRelative(file)}:${line}: names ${needle}`);
      break;
    }
  }
  return notes;
}

function main() {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const keepArg = args.find((arg) => arg.startsWith('--keep-under='));
  const unknown = args.find((arg) => arg.startsWith('--') && arg !== '--dry-run' && !arg.startsWith('--keep-under='));
  if (unknown) usage(`unknown option ${unknown}`);
  const paths = args.filter((arg) => !arg.startsWith('--')).map((arg) => path.resolve(process.cwd(), arg));
  if (paths.length < 2) usage();
  const destination = paths.pop();
  const keepUnder = keepArg && path.resolve(process.cwd(), keepArg.slice('--keep-under='.length));
  if (git('status', '--porcelain', '--untracked-files=no').trim() !== '' && !dryRun) usage('commit or stash your changes first: the move should be a diff of its own');

  const moves = planMoves(paths, destination, keepUnder);
  const repoFiles = git('ls-files', '-z')
    .split('\0')
    .filter(Boolean)
    .map((file) => path.join(root, file))
    .filter((file) => existsSync(file));
  const { rewritten, count } = rewriteImports(moves, repoFiles);
  const notes = leftovers(
    moves,
    repoFiles,
    paths.filter((source) => statSync(source).isDirectory()),
  );

  for (const [from, to] of moves) console.log(`${dryRun ? 'would move' : 'move'} ${repoRelative(from)} -> ${repoRelative(to)}`);
  if (!dryRun) {
    for (const [from, to] of moves) {
      mkdirSync(path.dirname(to), { recursive: true });
      git('mv', '--', repoRelative(from), repoRelative(to));
    }
    for (const [file, text] of rewritten) writeFileSync(file, text);
  }
  console.log(`${moves.size} files ${dryRun ? 'would move' : 'moved'}; ${count} relative imports in ${rewritten.size} files ${dryRun ? 'would be' : ''} rewritten`.replace('  ', ' '));
  if (notes.length > 0) console.log(`to check by hand (not rewritten):\n${notes.map((note) => `  ${note}`).join('\n')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
