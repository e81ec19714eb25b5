import type { ChunkTransformer } from './chunk-transformer';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer } from './upstream-adapter';

/**
 * A bridged stream: an upstream's StreamTransformer (upstream events → hub chunks) followed by a
 * ChunkTransformer (hub chunks → the caller's dialect); error steps pass through unchanged.
 * Usage, delivered text and completeness are the upstream side's. The caller's closing events
 * come only when the upstream ended its answer properly: a cut stream must end in an error, not
 * in a clean-looking close. The caller dialect's own failure events (`fail`) are the second
 * stage's, when it has them.
 */
export function chainTransformers(first: StreamTransformer, second: ChunkTransformer): StreamTransformer {
  const through = (steps: readonly StreamStep[]): StreamStep[] =>
    steps.flatMap((step) => (step.kind === 'error' ? [step] : second.transform(step.json)));
  const fail = second.fail?.bind(second);
  return {
    ...(fail ? { fail } : {}),
    transform: (event: SseEvent) => through(first.transform(event)),
    finish: () => {
      const steps = through(first.finish());
      return first.complete ? [...steps, ...second.finish()] : steps;
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
