import type { ChunkTransformer } from './chunk-transformer';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer } from './provider-adapter';

/** Each chunk step goes through `transformers` in turn; error steps pass through unchanged. */
function pipe(steps: readonly StreamStep[], transformers: readonly ChunkTransformer[]): StreamStep[] {
  const [next, ...rest] = transformers;
  if (!next) return [...steps];
  return steps.flatMap((step) => (step.kind === 'error' ? [step] : pipe(next.transform(step.json), rest)));
}

/**
 * A bridged stream: an upstream's StreamTransformer (upstream events → hub chunks) followed by
 * ChunkTransformers (hub chunks → the caller's dialect). Usage, delivered text and completeness
 * are the upstream side's. The chunk transformers' closing events come only when the upstream
 * ended its answer properly: a cut stream must end in an error, not in a clean-looking close.
 */
export function chainTransformers(
  first: StreamTransformer,
  second: ChunkTransformer,
  ...more: ChunkTransformer[]
): StreamTransformer {
  const chunkTransformers = [second, ...more];
  return {
    transform: (event: SseEvent) => pipe(first.transform(event), chunkTransformers),
    finish: () => {
      const steps = pipe(first.finish(), chunkTransformers);
      if (!first.complete) return steps;
      chunkTransformers.forEach((transformer, position) => {
        steps.push(...pipe(transformer.finish(), chunkTransformers.slice(position + 1)));
      });
      return steps;
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
