import type { ChunkTransformer } from './chunk-transformer';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer } from './provider-adapter';

/**
 * A bridged stream: the upstream's events → hub chunks (`first`) → the caller's events
 * (`second`). Failures pass through as they are. The caller's closing events come only when the
 * upstream said its answer was complete: a cut stream ends in an error, never a clean stop.
 * Usage, completeness and what was delivered are the upstream side's.
 */
export function chainTransformers(first: StreamTransformer, second: ChunkTransformer): StreamTransformer {
  const through = (steps: StreamStep[]): StreamStep[] => {
    const out: StreamStep[] = [];
    for (const step of steps) {
      if (step.kind === 'error') out.push(step);
      else out.push(...second.transform(step.json));
    }
    return out;
  };
  return {
    transform: (event: SseEvent) => through(first.transform(event)),
    finish: () => {
      const steps = through(first.finish());
      return first.complete && !steps.some((step) => step.kind === 'error') ? [...steps, ...second.finish()] : steps;
    },
    get complete(): boolean {
      return first.complete;
    },
    get usage(): ReportedUsage | undefined {
      return first.usage;
    },
    get deliveredChars(): number {
      return first.deliveredChars;
    },
    get deliveredText(): string {
      return first.deliveredText;
    },
  };
}
