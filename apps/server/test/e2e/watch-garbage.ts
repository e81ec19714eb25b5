import v8 from 'node:v8';
import vm from 'node:vm';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects garbage until `gone()` says so (three tries); a deref keeps its target alive to the end of the job, so each GC runs in a job of its own. */
export async function collectUntil(gone: () => boolean): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  for (let round = 0; round < 3 && !gone(); round += 1) {
    await delay(10);
    gc();
    await delay(10);
  }
}

/** Makes `key` of `holder` an accessor that shows each value set to `seen` before keeping it, as a plain property would. */
export function watchSets(holder: object, key: string, seen: (value: unknown) => void): void {
  let kept: unknown;
  Object.defineProperty(holder, key, {
    configurable: true,
    enumerable: true,
    get: () => kept,
    set: (value: unknown) => {
      seen(value);
      kept = value;
    },
  });
}
