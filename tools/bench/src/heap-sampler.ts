// Preloaded into the relay by `--soak` (`node --require heap-sampler.js`): writes
// process.memoryUsage() to BENCH_HEAP_FILE every 200 ms, so the benchmark reads the relay's heap
// without a line of the relay changed. On SIGUSR2 it collects garbage first (the relay runs with
// --expose-gc in the soak) and writes at once. Written whole to a temporary file, then renamed: a reader
// never sees half a line.
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env['BENCH_HEAP_FILE'];

function write(target: string): void {
  try {
    writeFileSync(`${target}.tmp`, JSON.stringify(process.memoryUsage()));
    renameSync(`${target}.tmp`, target);
  } catch {
    // The benchmark removed the directory while we shut down: nothing left to report to.
  }
}

if (file) {
  write(file);
  setInterval(() => write(file), 200).unref();
  // SIGUSR2 (with --expose-gc): a full collection first, so the idle figure is what stays reachable.
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    write(file);
  });
}
