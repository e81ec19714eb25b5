/** 1–999 ms as the digits after the point, trailing zeros left out (`5` for 500, `005` for 5): every request writes one. */
const FRACTIONS: readonly string[] = Array.from({ length: 1000 }, (_, fraction) => String(fraction).padStart(3, '0').replace(/0+$/, ''));

/**
 * A duration as OpenAI writes it in `x-ratelimit-reset-*` headers — Go's `time.Duration`
 * format at millisecond precision: `0s`, `20ms`, `1s`, `8.64s`, `6m0s`, `1h2m3.5s`.
 * Rounded up to the millisecond so a reset is never announced early.
 */
export function formatOpenAiDuration(milliseconds: number): string {
  const total = Math.max(0, Math.ceil(milliseconds));
  if (total === 0) return '0s';
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const wholeSeconds = Math.floor((total % 60_000) / 1000);
  const fraction = total % 1000;
  const seconds = fraction === 0 ? `${wholeSeconds}` : `${wholeSeconds}.${FRACTIONS[fraction]}`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
