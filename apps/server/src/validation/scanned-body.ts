import { performance } from 'node:perf_hooks';
import { JsonContainerScanner, type JsonChild } from './json-container-scanner';

/** A JSON body read but not parsed: its bytes and the top-level members the scan found. */
export interface JsonBodyScan {
  /** The bytes the offsets point into. */
  source: Buffer;
  /** `{` or `[`. */
  opener: number;
  children: readonly JsonChild[];
  /** The top-level object's members by key (the last of duplicates, as JSON.parse keeps). */
  members: ReadonlyMap<string, JsonChild>;
  /** The top-level `model`'s value (small ones only; else a marker that is no string). */
  model: unknown;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
/** A `model` longer than this is no model name: not decoded here (validation refuses it). */
const MODEL_BYTES = 4096;
/** A child container larger than this is split again rather than parsed at once. */
const SPLIT_BYTES = 256 * 1024;
/** Small neighbours are parsed together, about this many bytes a JSON.parse. */
const GROUP_BYTES = 64 * 1024;
/** Bytes a re-scan takes between turns of the event loop. */
const SCAN_WINDOW = 512 * 1024;
/** Longest run on the event loop before other requests get a turn. */
const SLICE_MS = 4;

const text = (source: Buffer, start: number, end: number): string => source.toString('utf8', start, end);

/** What a finished scan of a whole body found, ready for the policy (`model`) and the parse. */
export function scannedBody(source: Buffer, scan: JsonContainerScanner): JsonBodyScan {
  const members = new Map<string, JsonChild>();
  if (scan.opener === OPEN_BRACE) {
    for (const child of scan.children) members.set(JSON.parse(text(source, child.keyStart, child.keyEnd)) as string, child);
  }
  const model = members.get('model');
  let value: unknown;
  if (model) value = model.valueEnd - model.valueStart <= MODEL_BYTES ? JSON.parse(text(source, model.valueStart, model.valueEnd)) : false;
  return { source, opener: scan.opener, children: scan.children, members, model: value };
}

/** Bytes of a top-level member's value (0 when absent). */
export const memberBytes = (scan: JsonBodyScan, key: string): number => {
  const child = scan.members.get(key);
  return child ? child.valueEnd - child.valueStart : 0;
};

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Gives the event loop a turn once the current slice has run its time. */
class Slices {
  private started = performance.now();

  async pause(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await yieldToLoop();
    this.started = performance.now();
  }
}

/**
 * The value JSON.parse makes of the scanned body, built in slices of a few milliseconds with the
 * event loop's other work in between: each top-level member is parsed on its own, a large
 * container split again — its small children parsed in groups of about 64 KiB. Rejects with JSON.parse's
 * SyntaxError when a piece is not JSON.
 */
export async function parseScannedBody(scan: JsonBodyScan): Promise<unknown> {
  return assemble(scan.source, scan.opener, scan.children, 0, new Slices());
}

/** An own property, as JSON.parse defines it (`__proto__` included, which plain assignment would not make). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

async function assemble(source: Buffer, opener: number, children: readonly JsonChild[], depth: number, slices: Slices): Promise<unknown> {
  const isObject = opener === OPEN_BRACE;
  const object: Record<string, unknown> = {};
  const array: unknown[] = [];
  for (const child of children) {
    if (child.group) {
      // Neighbours cut straight from the body: `"a":1,"b":2` → `{"a":1,"b":2}`, `1,2` → `[1,2]`.
      const members = text(source, child.valueStart, child.valueEnd);
      const batch = JSON.parse(isObject ? `{${members}}` : `[${members}]`) as Record<string, unknown> | unknown[];
      if (Array.isArray(batch)) for (const value of batch) array.push(value);
      else for (const key of Object.keys(batch)) define(object, key, batch[key]);
    } else {
      const value = isLarge(source, child) ? await splitAgain(source, child, depth, slices) : JSON.parse(text(source, child.valueStart, child.valueEnd));
      if (isObject) define(object, JSON.parse(text(source, child.keyStart, child.keyEnd)) as string, value);
      else array.push(value);
    }
    await slices.pause();
  }
  return isObject ? object : array;
}

const isLarge = (source: Buffer, child: JsonChild): boolean =>
  (source[child.valueStart] === OPEN_BRACE || source[child.valueStart] === OPEN_BRACKET) && child.valueEnd - child.valueStart > SPLIT_BYTES;

async function splitAgain(source: Buffer, child: JsonChild, depth: number, slices: Slices): Promise<unknown> {
  const scanner = new JsonContainerScanner(child.valueStart, { depth: depth + 1, groupBytes: GROUP_BYTES, splitBytes: SPLIT_BYTES });
  for (let at = child.valueStart; at < child.valueEnd && !scanner.failure; at += SCAN_WINDOW) {
    scanner.feed(source, at, Math.min(at + SCAN_WINDOW, child.valueEnd));
    await slices.pause();
  }
  if (scanner.finish()) throw new SyntaxError(`Unexpected token in JSON at position ${scanner.failure?.at ?? child.valueStart}`);
  return assemble(source, scanner.opener, scanner.children, depth + 1, slices);
}
