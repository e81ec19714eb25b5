import { isoToLocalInput, localInputToIso } from './local-time';

describe('datetime-local ↔ ISO UTC', () => {
  it('reads the input as the browser’s local time and hands the API UTC', () => {
    const local = new Date(2026, 10, 1, 10, 30);
    expect(localInputToIso('2026-11-01T10:30')).toBe(local.toISOString());
    expect(localInputToIso('2026-11-01T10:30:15')).toBe(new Date(2026, 10, 1, 10, 30, 15).toISOString());
  });

  it('shows an ISO timestamp back in the input, and round-trips to the minute', () => {
    const iso = new Date(2026, 0, 5, 7, 4).toISOString();
    expect(isoToLocalInput(iso)).toBe('2026-01-05T07:04');
    expect(localInputToIso(isoToLocalInput(iso))).toBe(iso);
  });

  it('treats empty as no value and refuses what the input never produces', () => {
    expect(localInputToIso('  ')).toBeNull();
    expect(isoToLocalInput(null)).toBe('');
    expect(isoToLocalInput('not a date')).toBe('');
    expect(() => localInputToIso('2026')).toThrow('not a date and time');
    expect(() => localInputToIso('2026-13-45T99:99')).toThrow('not a date and time');
  });
});
