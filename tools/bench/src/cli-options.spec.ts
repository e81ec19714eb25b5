import { parseBenchOptions } from './cli-options';

describe('parseBenchOptions: --soak', () => {
  it('is off by default; on, it lasts 2 minutes with 15 s of idle and 16 callers (quick: 20 s and 5 s)', () => {
    expect(parseBenchOptions([])).toMatchObject({ soak: false, soakSeconds: 120, soakIdleSeconds: 15, soakConnections: 16 });
    expect(parseBenchOptions(['--soak'])).toMatchObject({ soak: true, soakSeconds: 120, soakIdleSeconds: 15 });
    expect(parseBenchOptions(['--soak', '--quick'])).toMatchObject({ soak: true, soakSeconds: 20, soakIdleSeconds: 5 });
  });

  it('reads its durations and callers', () => {
    expect(parseBenchOptions(['--soak', '--soak-seconds=30', '--soak-idle-seconds=0', '--soak-connections=4', '--json'])).toMatchObject({
      soak: true,
      soakSeconds: 30,
      soakIdleSeconds: 0,
      soakConnections: 4,
      json: true,
    });
  });

  it('refuses a zero or unreadable duration and a zero caller count, naming the argument', () => {
    expect(() => parseBenchOptions(['--soak-seconds=0'])).toThrow('--soak-seconds=0');
    expect(() => parseBenchOptions(['--soak-seconds=two'])).toThrow('--soak-seconds=two');
    expect(() => parseBenchOptions(['--soak-idle-seconds=-1'])).toThrow('--soak-idle-seconds=-1');
    expect(() => parseBenchOptions(['--soak-connections=0'])).toThrow('--soak-connections=0');
  });
});

describe('parseBenchOptions: --shared-stores', () => {
  it('is off by default and takes no value', () => {
    expect(parseBenchOptions([]).sharedStores).toBe(false);
    expect(parseBenchOptions(['--shared-stores', '--duration=3', '--slow-streams=0'])).toMatchObject({
      sharedStores: true,
      durationSeconds: 3,
      slowStreams: 0,
    });
    expect(() => parseBenchOptions(['--shared-stores=postgres://db/x'])).toThrow('--shared-stores takes no value');
  });

  it('is for the table only, not the soak', () => {
    expect(() => parseBenchOptions(['--soak', '--shared-stores'])).toThrow('--shared-stores applies to the table, not to --soak');
  });
});

describe('parseBenchOptions: --large-bodies', () => {
  it('runs with the table by default; only it, or without it, when asked', () => {
    expect(parseBenchOptions([]).largeBodies).toBe('with');
    expect(parseBenchOptions(['--large-bodies=only']).largeBodies).toBe('only');
    expect(parseBenchOptions(['--large-bodies=skip']).largeBodies).toBe('skip');
    expect(() => parseBenchOptions(['--large-bodies'])).toThrow('--large-bodies=only or --large-bodies=skip');
  });
});

describe('parseBenchOptions: --profile', () => {
  it('is off by default and reads <mode>:<connections>', () => {
    expect(parseBenchOptions([]).profileRow).toBeUndefined();
    expect(parseBenchOptions(['--profile=stream:32', '--duration=8'])).toMatchObject({ profileRow: { mode: 'stream', connections: 32 }, durationSeconds: 8 });
    expect(parseBenchOptions(['--profile=non-stream:1']).profileRow).toEqual({ mode: 'non-stream', connections: 1 });
  });

  it('refuses embeddings (the Express proxy does not route them), a missing or zero count, and --soak', () => {
    expect(() => parseBenchOptions(['--profile=embeddings:32'])).toThrow('--profile=embeddings:32');
    expect(() => parseBenchOptions(['--profile=stream'])).toThrow('--profile=stream');
    expect(() => parseBenchOptions(['--profile=stream:0'])).toThrow('--profile=stream:0');
    expect(() => parseBenchOptions(['--profile=stream:32', '--soak'])).toThrow('--profile runs one row on its own');
  });
});

describe('parseBenchOptions: --warmup', () => {
  it('warms each row for 3 s by default (quick: 0.5 s) and takes another length, zero included', () => {
    expect(parseBenchOptions([]).warmupSeconds).toBe(3);
    expect(parseBenchOptions(['--quick']).warmupSeconds).toBe(0.5);
    expect(parseBenchOptions(['--warmup=1']).warmupSeconds).toBe(1);
    expect(parseBenchOptions(['--warmup=0', '--quick']).warmupSeconds).toBe(0);
  });

  it('refuses a negative or unreadable length, naming the argument', () => {
    expect(() => parseBenchOptions(['--warmup=-1'])).toThrow('--warmup=-1');
    expect(() => parseBenchOptions(['--warmup=long'])).toThrow('--warmup=long');
  });
});

describe('parseBenchOptions: --rows', () => {
  it('runs the whole table by default; named rows in the table order', () => {
    expect(parseBenchOptions([]).rows).toBeUndefined();
    expect(parseBenchOptions(['--rows=stream:32,non-stream:1,stream:1']).rows).toEqual([
      { mode: 'non-stream', connections: 1 },
      { mode: 'stream', connections: 1 },
      { mode: 'stream', connections: 32 },
    ]);
    expect(parseBenchOptions(['--rows=embeddings:32']).rows).toEqual([{ mode: 'embeddings', connections: 32 }]);
  });

  it('refuses a row the table does not have, an unknown mode and a missing count', () => {
    expect(() => parseBenchOptions(['--rows=stream:8'])).toThrow('the table has no row stream:8 (it has non-stream:1, non-stream:32');
    expect(() => parseBenchOptions(['--rows=chat:1'])).toThrow('chat:1 is not <mode>:<connections>');
    expect(() => parseBenchOptions(['--rows=stream'])).toThrow('stream is not <mode>:<connections>');
    expect(() => parseBenchOptions(['--rows='])).toThrow('expected --rows=<mode>:<connections>');
  });
});

describe('parseBenchOptions: --slices', () => {
  it('cuts each row into 5 windows by default (quick: 1, the sequential measurement) and takes another whole count', () => {
    expect(parseBenchOptions([]).slices).toBe(5);
    expect(parseBenchOptions(['--quick']).slices).toBe(1);
    expect(parseBenchOptions(['--slices=3']).slices).toBe(3);
  });

  it('refuses zero, a fraction or words, naming the argument', () => {
    expect(() => parseBenchOptions(['--slices=0'])).toThrow('--slices=0');
    expect(() => parseBenchOptions(['--slices=2.5'])).toThrow('--slices=2.5');
    expect(() => parseBenchOptions(['--slices=many'])).toThrow('--slices=many');
  });
});
