import { ConfigError, loadConfig } from './config';

const DAY_MS = 86_400_000;

/** The message loadConfig throws for `env`, or undefined when it loads. */
function configErrorOf(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
}

describe('loadConfig: the Responses API state (RELAY_RESPONSES_STORE, RELAY_RESPONSES_TTL)', () => {
  it('stores responses for 30 days when neither is set, or both are empty', () => {
    expect(loadConfig({}).responses).toMatchObject({ store: true, ttlMs: 30 * DAY_MS });
    expect(loadConfig({ RELAY_RESPONSES_STORE: '', RELAY_RESPONSES_TTL: '' }).responses).toMatchObject({ store: true, ttlMs: 2_592_000_000 });
    expect(loadConfig({ RELAY_RESPONSES_STORE: '  ', RELAY_RESPONSES_TTL: '  ' }).responses).toMatchObject({ store: true, ttlMs: 2_592_000_000 });
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['on', true],
    ['TRUE', true],
    [' Yes ', true],
    ['false', false],
    ['0', false],
    ['no', false],
    ['off', false],
    ['False', false],
    ['OFF', false],
  ])('RELAY_RESPONSES_STORE=%j → %s', (value, store) => {
    expect(loadConfig({ RELAY_RESPONSES_STORE: value }).responses.store).toBe(store);
  });

  it.each(['maybe', '2', 'y', 'n', 'enabled', 'true false', '-1'])('refuses RELAY_RESPONSES_STORE=%j, naming it', (value) => {
    expect(configErrorOf({ RELAY_RESPONSES_STORE: value })).toMatch(/RELAY_RESPONSES_STORE: must be true or false/);
  });

  it.each([
    ['30d', 30 * DAY_MS],
    ['12h', 12 * 3_600_000],
    ['90m', 90 * 60_000],
    ['3600s', 3_600_000],
    ['3600', 3_600_000],
    ['60', 60_000],
    ['1m', 60_000],
    ['2D', 2 * DAY_MS],
    [' 12h ', 12 * 3_600_000],
    ['12 h', 12 * 3_600_000],
    ['365d', 365 * DAY_MS],
  ])('RELAY_RESPONSES_TTL=%j → %d ms', (value, ttlMs) => {
    expect(loadConfig({ RELAY_RESPONSES_TTL: value }).responses.ttlMs).toBe(ttlMs);
  });

  it.each(['0', '59', '59s', '0m', '0d', '1.5h', '-1h', '10w', '12hours', 'h', 'abc', '1e3', '0x10', '99999999999999999999d'])(
    'refuses RELAY_RESPONSES_TTL=%j (garbage, or under 60 seconds), naming it',
    (value) => {
      expect(configErrorOf({ RELAY_RESPONSES_TTL: value })).toMatch(/RELAY_RESPONSES_TTL: must be a duration such as 30d, 12h or 90m, at least 60 seconds and at most 36500 days/);
    },
  );

  it('issue 13: refuses a TTL over 100 years, whose expiry is no four-digit-year date (past 9999 it sorts before today: expired at birth)', () => {
    for (const value of ['36501d', '3000000d', '100000000d', '9000000000000s']) {
      expect(configErrorOf({ RELAY_RESPONSES_TTL: value })).toMatch(/RELAY_RESPONSES_TTL: must be a duration .*at most 36500 days/);
    }
    const longest = loadConfig({ RELAY_RESPONSES_TTL: '36500d' }).responses.ttlMs;
    expect(longest).toBe(36_500 * DAY_MS);
    expect(new Date(Date.now() + longest).toISOString()).toMatch(/^\d{4}-/);
  });

  it('names both variables when both are wrong, and keeps the store switch apart from the TTL', () => {
    const message = configErrorOf({ RELAY_RESPONSES_STORE: 'perhaps', RELAY_RESPONSES_TTL: '5s' }) ?? '';
    expect(message).toContain('RELAY_RESPONSES_STORE');
    expect(message).toContain('RELAY_RESPONSES_TTL');
    expect(loadConfig({ RELAY_RESPONSES_STORE: 'off', RELAY_RESPONSES_TTL: '7d' }).responses).toMatchObject({ store: false, ttlMs: 7 * DAY_MS });
  });
});

describe('loadConfig: what one account keeps (RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT, RELAY_RESPONSES_MAX_PER_ACCOUNT)', () => {
  it('keeps at most 100 MiB and 10,000 responses per account when neither is set', () => {
    expect(loadConfig({}).responses).toMatchObject({ maxBytesPerAccount: 100 * 1024 * 1024, maxPerAccount: 10_000 });
    expect(loadConfig({ RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT: '1048576', RELAY_RESPONSES_MAX_PER_ACCOUNT: '50' }).responses).toMatchObject({
      maxBytesPerAccount: 1_048_576,
      maxPerAccount: 50,
    });
  });

  it.each([
    ['RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT', '1000', /RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT: .*65536/],
    ['RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT', '10MB', /RELAY_RESPONSES_MAX_BYTES_PER_ACCOUNT: must be a number/],
    ['RELAY_RESPONSES_MAX_PER_ACCOUNT', '0', /RELAY_RESPONSES_MAX_PER_ACCOUNT: .*1/],
    ['RELAY_RESPONSES_MAX_PER_ACCOUNT', '2.5', /RELAY_RESPONSES_MAX_PER_ACCOUNT: must be a whole number/],
  ])('refuses %s=%j, naming it', (name, value, message) => {
    expect(configErrorOf({ [name]: value })).toMatch(message);
  });
});

describe('loadConfig: RELAY_WEB_SEARCH_MAX_CALLS (searches one bridged Response runs at most)', () => {
  it('5 when not set; a number from 1 to 50 as given', () => {
    expect(loadConfig({}).webSearchMaxCalls).toBe(5);
    expect(loadConfig({ RELAY_WEB_SEARCH_MAX_CALLS: '12' }).webSearchMaxCalls).toBe(12);
  });

  it.each(['0', '51', 'many'])('refuses RELAY_WEB_SEARCH_MAX_CALLS=%j, naming it', (value) => {
    expect(configErrorOf({ RELAY_WEB_SEARCH_MAX_CALLS: value })).toContain('RELAY_WEB_SEARCH_MAX_CALLS');
  });
});
