// Preloaded into the relay by `--soak` (`node --require heap-sampler.js`): writes
// process.memoryUsage() to BENCH_HEAP_FILE every 200 ms, so the benchmark reads the relay's heap
// without a line of the relay changed. Written whole to a temporary file, then renamed: a reader
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
}
