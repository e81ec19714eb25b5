import { ConfigError, loadConfig } from '../config';

describe('alert and webhook settings', () => {
  it('defaults to 80 and 100 percent, 10 s, 8 attempts, a 5 s first retry, 7 days, windows in UTC', () => {
    expect(loadConfig({}).alerts).toEqual({ thresholds: [80, 100], defaultTimeZone: 'UTC', timeoutMs: 10_000, maxAttempts: 8, firstDelayMs: 5_000, retentionDays: 7 });
  });

  it('reads thresholds as sorted whole percents without repeats; none means never; the limits time zone is shared', () => {
    expect(loadConfig({ RELAY_ALERT_THRESHOLDS: ' 100, 50,80,80 ', RELAY_LIMITS_TIME_ZONE: 'Europe/Paris' }).alerts).toMatchObject({
      thresholds: [50, 80, 100],
      defaultTimeZone: 'Europe/Paris',
    });
    expect(loadConfig({ RELAY_ALERT_THRESHOLDS: 'none' }).alerts.thresholds).toEqual([]);
  });

  it.each(['0', '101', '80,abc', '12.5', '1,2,3,4,5,6,7,8,9,10,11'])('refuses RELAY_ALERT_THRESHOLDS=%s, naming it', (value) => {
    expect(() => loadConfig({ RELAY_ALERT_THRESHOLDS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ RELAY_ALERT_THRESHOLDS: value })).toThrow(/RELAY_ALERT_THRESHOLDS/);
  });
});
