// The I/O around cpu-profile.ts: finding the relay's `.cpuprofile` once it has exited, reading it,
// and mapping frames of the relay bundle back to the TypeScript sources through its `.map`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseCpuProfile, summarizeCpuProfile, type CallFrame, type Locator, type ProfileSummary } from './cpu-profile';
import { bundles } from './stack';

/** A summary and the profile it came from. */
export interface ProfileReport extends ProfileSummary {
  file: string;
}

const profileExtension = '.cpuprofile';

/** The newest `.cpuprofile` in `dir` modified at or after `sinceMs`, or undefined. */
export function newestProfile(dir: string, sinceMs = 0): string | undefined {
  if (!existsSync(dir)) return undefined;
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(profileExtension)) continue;
    const file = path.join(dir, name);
    const { mtimeMs } = statSync(file);
    if (mtimeMs >= sinceMs && (!newest || mtimeMs > newest.mtimeMs)) newest = { file, mtimeMs };
  }
  return newest?.file;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits up to `timeoutMs` for a profile written since `sinceMs` whose size has stopped changing:
 * Node writes it as the process exits.
 */
export async function waitForProfile(dir: string, sinceMs: number, timeoutMs = 5000): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let last: { file: string; size: number } | undefined;
  for (;;) {
    const file = newestProfile(dir, sinceMs);
    const size = file ? statSync(file).size : 0;
    if (file && size > 0 && last?.file === file && last.size === size) return file;
    last = file ? { file, size } : undefined;
    if (Date.now() >= deadline) return undefined;
    await sleep(100);
  }
}

const sourceMapSchema = z.object({
  version: z.number(),
  sources: z.array(z.string()),
  names: z.array(z.string()).default([]),
  mappings: z.string(),
  sourceRoot: z.string().default(''),
  file: z.string().default(''),
});

/** A frame URL (`file:///…` or a plain path) as a path, or undefined for other schemes. */
function scriptPath(url: string): string | undefined {
  if (url.startsWith('file://')) return fileURLToPath(url);
  return path.isAbsolute(url) ? url : undefined;
}

/** Loads `<script>.map` if there is one; the original sources come back relative to `root`. */
function loadLocator(script: string, root: string): Locator | undefined {
  const mapFile = `${script}.map`;
  if (!existsSync(mapFile)) return undefined;
  let payload: z.infer<typeof sourceMapSchema>;
  try {
    payload = sourceMapSchema.parse(JSON.parse(readFileSync(mapFile, 'utf8')));
  } catch {
    return undefined; // an unreadable map only costs the mapping: frames show as main.js:line
  }
  const map = new SourceMap({ ...payload, sourcesContent: [] });
  const base = path.resolve(path.dirname(mapFile), payload.sourceRoot);
  return (frame: CallFrame) => {
    if (frame.lineNumber < 0) return undefined;
    const entry = map.findEntry(frame.lineNumber, Math.max(0, frame.columnNumber));
    if (!('originalSource' in entry)) return undefined;
    const original = entry.originalSource.startsWith('file://')
      ? fileURLToPath(entry.originalSource)
      : path.resolve(base, entry.originalSource);
    return { source: path.relative(root, original), line: entry.originalLine + 1 };
  };
}

/** A locator for the relay bundle's frames through its sibling source map (loaded on first use). */
export function relayLocator(root: string, relayScript = bundles.relay): Locator {
  const locators = new Map<string, Locator | undefined>();
  return (frame) => {
    const script = scriptPath(frame.url);
    if (!script || !script.replace(/\\/g, '/').endsWith(`/${relayScript}`)) return undefined;
    if (!locators.has(script)) locators.set(script, loadLocator(script, root));
    return locators.get(script)?.(frame);
  };
}

/** Reads and summarises one profile; the relay bundle's frames are mapped to their sources. */
export function summarizeProfileFile(file: string, root: string): ProfileReport {
  const profile = parseCpuProfile(JSON.parse(readFileSync(file, 'utf8')));
  const summary = summarizeCpuProfile(profile, { relayScript: bundles.relay, locate: relayLocator(root) });
  return { file, ...summary };
}

/** `file` itself, or the newest profile in it when it is a directory. */
export function resolveProfileArgument(file: string): string {
  if (!statSync(file).isDirectory()) return file;
  const newest = newestProfile(file);
  if (!newest) throw new Error(`no ${profileExtension} file in ${file}`);
  return newest;
}
