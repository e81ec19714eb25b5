import type { Channel, ChannelCheck, ChannelHealth, ChannelKeyStatus, ChannelTestResult } from '@chat-relay/contract';
import { formatTime } from '../../api/format';

/** A test's outcome in one line: `OK · 123 ms · gpt-4o`, or the upstream's message and status. */
export function describeTestResult(result: ChannelTestResult | ChannelCheck): string {
  if (result.ok) return `OK · ${result.latency_ms} ms · ${result.model}`;
  const parts = [result.error?.message ?? 'The test failed', result.status === undefined ? 'no answer' : `HTTP ${result.status}`, `${result.latency_ms} ms`, result.model];
  return parts.join(' · ');
}

/** The last check with when and why it ran, or that there was none on this instance. */
export function describeLastCheck(check: ChannelCheck | null): string {
  if (!check) return 'Not tested since this relay instance started';
  return `${describeTestResult(check)} — ${check.trigger === 'manual' ? 'manual test' : 'scheduled check'}, ${formatTime(check.at)}`;
}

/** The circuit breaker in words, with whether it sends requests; `tone` picks the badge. */
export function describeCircuit(health: Omit<ChannelHealth, 'refused_parameters'>): { label: string; tone: 'ok' | 'bad' | 'warn'; detail: string } {
  const detail = `${health.failures} of ${health.attempts} recent attempts failed`;
  switch (health.state) {
    case 'closed':
      return { label: 'Circuit closed', tone: 'ok', detail };
    case 'half_open':
      return { label: 'Circuit half-open', tone: 'warn', detail: `${detail}; one trial request is let through` };
    case 'open':
      return { label: 'Circuit open', tone: 'bad', detail: `${detail}; no requests until ${formatTime(health.open_until)}` };
  }
}

/**
 * What the channel's upstream refused by name, per model, that the relay now leaves out of its
 * adapted requests (`top_k (gpt-4o); max_tokens over 16384 (gpt-4o)`); undefined when nothing was.
 */
export function describeRefusedParameters(health: Pick<ChannelHealth, 'refused_parameters'>): string | undefined {
  if (health.refused_parameters.length === 0) return undefined;
  const parts = health.refused_parameters.map((refusal) =>
    refusal.at_most === null ? `${refusal.field} (${refusal.model})` : `${refusal.field} over ${refusal.at_most} (${refusal.model})`,
  );
  return `Upstream refused, left out since: ${parts.join('; ')}`;
}

/** A disabled key's reason and since when; the relay disables a key its upstream refused with 401/403. */
export function describeDisabledKey(key: ChannelKeyStatus): string {
  const reason = key.reason ?? 'disabled';
  return key.changed_at ? `${reason} (since ${formatTime(key.changed_at)})` : reason;
}

const isPattern = (model: string): boolean => /[*?]/.test(model);

/** Names a test can ask for: the channel's plain model names and its mapped public names (globs name no one model). */
export function testableModels(channel: Pick<Channel, 'models' | 'model_mapping'>): string[] {
  return [...new Set([...channel.models.filter((model) => !isPattern(model)), ...Object.keys(channel.model_mapping)])];
}
