import { DEFAULT_SIM_KEY, parseFuzzCliOptions } from './cli-options';
import { DEFAULT_SEED } from './fuzz-options';

describe('parseFuzzCliOptions', () => {
  it('takes the relay and its admin key, the rest defaulting to what the specs run', () => {
    expect(parseFuzzCliOptions(['--url=http://127.0.0.1:3000/', '--admin-key=sk-admin'])).toEqual({
      url: 'http://127.0.0.1:3000',
      adminKey: 'sk-admin',
      simUrl: undefined,
      simKey: DEFAULT_SIM_KEY,
      fuzz: { seed: DEFAULT_SEED, runs: 10_000, concurrency: 12, timeoutMs: 15_000, maxStringBytes: 50_000 },
      help: false,
    });
  });

  it('reads the admin key from RELAY_ADMIN_KEY, and every knob from its option', () => {
    const options = parseFuzzCliOptions(
      ['--url=http://relay:3000', '--sim-url=http://sim:4010/', '--sim-key=sk-x', '--runs=50', '--seed=3', '--only=9,2', '--concurrency=4', '--timeout-ms=500', '--max-string-bytes=10'],
      { RELAY_ADMIN_KEY: 'sk-env' },
    );
    expect(options).toEqual({
      url: 'http://relay:3000',
      adminKey: 'sk-env',
      simUrl: 'http://sim:4010',
      simKey: 'sk-x',
      fuzz: { seed: 3, runs: 50, concurrency: 4, timeoutMs: 500, maxStringBytes: 10, only: [2, 9] },
      help: false,
    });
  });

  it.each([
    [[], '--url is required'],
    [['--url=http://a:1'], '--admin-key (or RELAY_ADMIN_KEY) is required'],
    [['--url=https://a', '--admin-key=k'], '--url=https://a: expected http://host:port'],
    [['--url=http://a:1/v1', '--admin-key=k'], '--url=http://a:1/v1: expected http://host:port'],
    [['--url=http://a:1', '--admin-key=k', '--runs=0'], '--runs=0: expected a positive integer'],
    [['--url=http://a:1', '--admin-key=k', '--seed=x'], '--seed=x: expected a non-negative integer or random'],
    [['--url=http://a:1', '--admin-key=k', '--only=1,b'], '--only=1,b: expected case indices'],
    [['--url=http://a:1', '--admin-key=k', '--model=m'], '--model: unknown option'],
    [['--url', 'http://a:1'], '--url: expected --name=value'],
  ])('refuses %j: %s', (args, message) => {
    expect(() => parseFuzzCliOptions(args)).toThrow(message);
  });

  it('asks for nothing with --help', () => {
    expect(parseFuzzCliOptions(['--help']).help).toBe(true);
  });
});
