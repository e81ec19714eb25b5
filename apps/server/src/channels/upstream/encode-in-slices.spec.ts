import { encodeInSlices } from './encode-in-slices';

describe('encodeInSlices', () => {
  it('the bytes Buffer.from makes, a surrogate pair never cut between slices', async () => {
    // An emoji (two UTF-16 units) straddles every slice boundary of 512 Ki units.
    const text = `${'a'.repeat(512 * 1024 - 1)}🎉${'é'.repeat(600_000)}🎉${'x'.repeat(300_000)}`;
    const pieces = await encodeInSlices(text);
    expect(pieces.length).toBeGreaterThan(2);
    expect(Buffer.concat(pieces).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(Buffer.concat(await encodeInSlices('short')).toString()).toBe('short');
  });
});
