import { isTimeZone, TimeZoneSchema } from './limits.schema';

describe('isTimeZone', () => {
  it('takes UTC (answered without asking ICU) and IANA names, in any case Intl accepts', () => {
    expect(['UTC', 'utc', 'Etc/UTC', 'Europe/Paris', 'Asia/Tokyo', 'America/Argentina/Buenos_Aires'].map(isTimeZone)).toEqual([true, true, true, true, true, true]);
  });

  it('refuses what is not a zone', () => {
    expect(['Mars/Olympus', 'UTC+25', '', 'Europe/'].map(isTimeZone)).toEqual([false, false, false, false]);
  });

  it('the schema says what it wants', () => {
    const parsed = TimeZoneSchema.safeParse('Mars/Olympus');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('must be an IANA time zone, e.g. UTC or Europe/Paris');
    expect(TimeZoneSchema.parse(' UTC ')).toBe('UTC');
  });
});
