import { ANTHROPIC_STOP_REASONS, finishReasonFor, mapAnthropicStopReason } from './map-anthropic-stop-reason';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['pause_turn', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
  ])('%s → %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });

  it('covers every known stop reason and reads a missing or unknown one as stop', () => {
    for (const reason of ANTHROPIC_STOP_REASONS) expect(() => mapAnthropicStopReason(reason)).not.toThrow();
    expect(mapAnthropicStopReason(null)).toBe('stop');
    expect(mapAnthropicStopReason('something_new')).toBe('stop');
  });

  it('finishes with stop when the only tool used was the JSON-response tool', () => {
    expect(finishReasonFor('tool_use', 0)).toBe('stop');
    expect(finishReasonFor('tool_use', 2)).toBe('tool_calls');
    expect(finishReasonFor('max_tokens', 0)).toBe('length');
  });
});
