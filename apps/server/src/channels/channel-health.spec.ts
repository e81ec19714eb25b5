import { ChannelHealth } from './channel-health';

describe('ChannelHealth circuit breaker', () => {
  let now = 0;
  const health = () =>
    new ChannelHealth({ windowMs: 10_000, minFailures: 4, perCallerCap: 2, failureRate: 0.5, coolDownMs: 1000 }, () => now);
  /** Opens channel 1 the way a real outage does: failures from several callers. */
  const trip = (circuit: ChannelHealth) => {
    for (const caller of ['token:1', 'token:1', 'token:2', 'token:2']) circuit.recordFailure(1, caller);
  };

  beforeEach(() => {
    now = 100_000;
  });

  it('opens on failures from several callers, at the threshold and not below', () => {
    const circuit = health();
    circuit.recordFailure(1, 'token:1');
    circuit.recordFailure(1, 'token:1');
    circuit.recordFailure(1, 'token:2');
    expect(circuit.isAvailable(1)).toBe(true);
    circuit.recordFailure(1, 'token:2');
    expect(circuit.isAvailable(1)).toBe(false);
    expect(circuit.isAvailable(2)).toBe(true);
    expect(circuit.snapshot(1)).toMatchObject({ state: 'open', failures: 4, attempts: 4 });
  });

  it('lets one trial through after the cool-down; success closes it', () => {
    const circuit = health();
    trip(circuit);
    now += 1000;
    expect(circuit.isAvailable(1)).toBe(true);
    expect(circuit.snapshot(1).state).toBe('half_open');
    circuit.markAttempt(1);
    expect(circuit.isAvailable(1)).toBe(false);
    circuit.recordSuccess(1);
    expect(circuit.isAvailable(1)).toBe(true);
    expect(circuit.snapshot(1)).toEqual({ state: 'closed', attempts: 0, failures: 0, openUntil: null });
  });

  it('a failed trial reopens it for another cool-down', () => {
    const circuit = health();
    trip(circuit);
    now += 1000;
    circuit.markAttempt(1);
    circuit.recordFailure(1, 'token:9');
    expect(circuit.isAvailable(1)).toBe(false);
    now += 999;
    expect(circuit.isAvailable(1)).toBe(false);
    now += 1;
    expect(circuit.isAvailable(1)).toBe(true);
  });

  it('a trial whose outcome says nothing about the channel lets the next request try', () => {
    const circuit = health();
    trip(circuit);
    now += 1000;
    circuit.markAttempt(1);
    expect(circuit.isAvailable(1)).toBe(false);
    circuit.releaseTrial(1);
    expect(circuit.isAvailable(1)).toBe(true);
  });

  it('successes in the window keep a busy channel closed below the failure rate', () => {
    const circuit = health();
    for (let i = 0; i < 10; i++) circuit.recordSuccess(1);
    trip(circuit);
    expect(circuit.isAvailable(1)).toBe(true);
    expect(circuit.snapshot(1)).toMatchObject({ state: 'closed', attempts: 14, failures: 4 });
  });

  it('failures older than the window are forgotten', () => {
    const circuit = health();
    circuit.recordFailure(1, 'token:1');
    circuit.recordFailure(1, 'token:1');
    circuit.recordFailure(1, 'token:2');
    now += 11_000;
    circuit.recordFailure(1, 'token:2');
    expect(circuit.isAvailable(1)).toBe(true);
  });
});

describe('issue 10 defect 7: any token trips a channel for everyone (circuit rule)', () => {
  let now = 0;
  const health = () => new ChannelHealth({ coolDownMs: 30_000 }, () => now);

  beforeEach(() => {
    now = 100_000;
  });

  it('one caller failing a hundred times in a row does not open the circuit', () => {
    const circuit = health();
    for (let i = 0; i < 100; i++) circuit.recordFailure(1, 'token:attacker');
    expect(circuit.isAvailable(1)).toBe(true);
    expect(circuit.snapshot(1)).toMatchObject({ state: 'closed', failures: 100 });
  });

  it('connection failures no request can cause open it whoever sees them', () => {
    const circuit = health();
    for (let i = 0; i < 4; i++) circuit.recordFailure(1, null);
    expect(circuit.isAvailable(1)).toBe(false);
  });

  it('failures of two callers each, to the default threshold, open it', () => {
    const circuit = health();
    for (const caller of ['token:1', 'token:2', 'token:1', 'token:2']) circuit.recordFailure(1, caller);
    expect(circuit.isAvailable(1)).toBe(false);
  });
});

describe("an upstream's retry-after (issue 31: Azure's retry-after-ms)", () => {
  it('rests the channel until then, at most a minute, without counting against its circuit', () => {
    let now = 0;
    const health = new ChannelHealth({ coolDownMs: 30_000 }, () => now);
    health.rest(1, 1_500);
    expect(health.isAvailable(1)).toBe(false);
    expect(health.isAvailable(2)).toBe(true);
    now = 1_499;
    expect(health.isAvailable(1)).toBe(false);
    now = 1_500;
    expect(health.isAvailable(1)).toBe(true);
    expect(health.snapshot(1)).toMatchObject({ state: 'closed', failures: 0 });
    health.rest(1, 3_600_000);
    now += 60_000;
    expect(health.isAvailable(1)).toBe(true);
  });
});
