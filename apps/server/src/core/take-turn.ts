/**
 * Above this many bytes a JSON body is scanned as it arrives and parsed later, in slices (see
 * parse-json-body.ts), rather than parsed at once: JSON.parse holds the event loop ~4 ms per MB.
 */
export const LARGE_JSON_BYTES = 1024 * 1024;

/** Requests waiting for their turn, first come first served. */
const waiting: Array<() => void> = [];
let scheduled = false;

function releaseNext(): void {
  scheduled = false;
  waiting.shift()?.();
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  scheduled = true;
  setImmediate(releaseNext);
}

/**
 * Waits for a turn of the event loop that no other large request has: between two turns the
 * loop serves its I/O (a health check, a small request's next chunk). Large requests take one
 * before each long synchronous step they cannot split — schema validation, converting and
 * serialising the upstream request — so that four of them arriving together run those steps one
 * per turn instead of back to back, and the loop is never held for more than one of them.
 */
export function takeTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) schedule();
  });
}
