// What a TypeScript file imports, found by the TypeScript compiler's own pre-processor (imports,
// `export … from`, `import type`, `import()`, `require()`), plus the paths jest.mock() and its
// kin name: shared by check-cycles.mjs and move-files.mjs.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const JEST_PATH_CALL = /\bjest\.(?:mock|doMock|unmock|dontMock|requireActual|requireMock|createMockFromModule)\(\s*(['"])([^'"\n]+)\1/g;

/** Every module specifier in `text`, with the offsets of the text between its quotes. */
export function importSpecifiers(text) {
  const found = new Map();
  for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
    // `pos` may point at the opening quote; keep only specifiers whose text is found verbatim.
    const start = /['"`]/.test(text[imported.pos] ?? '') ? imported.pos + 1 : imported.pos;
    if (text.slice(start, start + imported.fileName.length) !== imported.fileName) continue;
    found.set(start, { specifier: imported.fileName, start, end: start + imported.fileName.length });
  }
  for (const match of text.matchAll(JEST_PATH_CALL)) {
    const start = match.index + match[0].length - match[2].length - 1;
    if (!found.has(start)) found.set(start, { specifier: match[2], start, end: start + match[2].length });
  }
  return [...found.values()].sort((left, right) => left.start - right.start);
}

export const isRelative = (specifier) => specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');

const isFile = (file) => existsSync(file) && statSync(file).isFile();

/** The file a relative specifier in `fromFile` names, as Node's and TypeScript's resolution would find it; undefined if none. */
export function resolveRelative(fromFile, specifier, fileExists = isFile) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}.mjs`, `${base}.json`, path.join(base, 'index.ts'), path.join(base, 'index.tsx'), path.join(base, 'index.js')];
  // `./x.js` written for ESM output may name `./x.ts`.
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.m?js$/, '.ts'));
  return candidates.find((candidate) => fileExists(candidate));
}
