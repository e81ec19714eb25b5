import { ChannelHealth } from './channel-health';

describe('ChannelHealth circuit breaker', () => {
  let now = 0;
  const health = () => new ChannelHealth({ failureThreshold: 3, coolDownMs: 1000 }, () => now);

  beforeEach(() => {
    now = 10_000;
  });

  it('stays closed below the threshold and opens at it', () => {
    const circuit = health();
    circuit.recordFailure(1);
    circuit.recordFailure(1);
    expect(circuit.isAvailable(1)).toBe(true);
    circuit.recordFailure(1);
    expect(circuit.isAvailable(1)).toBe(false);
    expect(circuit.isAvailable(2)).toBe(true);
  });

  it('lets one trial through after the cool-down; success closes it', () => {
    const circuit = health();
    for (let i = 0; i < 3; i++) circuit.recordFailure(1);
    now += 1000;
    expect(circuit.isAvailable(1)).toBe(true);
    circuit.markAttempt(1);
    expect(circuit.isAvailable(1)).toBe(false);
    circuit.recordSuccess(1);
    expect(circuit.isAvailable(1)).toBe(true);
  });

  it('a failed trial reopens it for another cool-down', () => {
    const circuit = health();
    for (let i = 0; i < 3; i++) circuit.recordFailure(1);
    now += 1000;
    circuit.markAttempt(1);
    circuit.recordFailure(1);
    expect(circuit.isAvailable(1)).toBe(false);
    now += 999;
    expect(circuit.isAvailable(1)).toBe(false);
    now += 1;
    expect(circuit.isAvailable(1)).toBe(true);
  });

  it('a success resets the count of consecutive failures', () => {
    const circuit = health();
    circuit.recordFailure(1);
    circuit.recordFailure(1);
    circuit.recordSuccess(1);
    circuit.recordFailure(1);
    circuit.recordFailure(1);
    expect(circuit.isAvailable(1)).toBe(true);
  });
});
