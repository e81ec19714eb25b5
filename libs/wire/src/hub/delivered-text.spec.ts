import { DeliveredText } from './delivered-text';

describe('DeliveredText', () => {
  it('gives back every piece in order, whatever the number of pieces', () => {
    for (const count of [0, 1, 31, 32, 33, 64, 65, 1000]) {
      const delivered = new DeliveredText();
      const pieces = Array.from({ length: count }, (_, index) => ` w${index}é`);
      for (const piece of pieces) delivered.add(piece);
      expect(delivered.text).toBe(pieces.join(''));
      expect(delivered.pieces).toBe(count);
      expect(delivered.chars).toBe(pieces.join('').length);
      expect(delivered.lastPiece).toBe(pieces[count - 1] ?? '');
    }
  });

  it('holds a long answer in a few joined strings, not one string per piece', () => {
    const delivered = new DeliveredText();
    for (let index = 0; index < 4000; index += 1) delivered.add(' tok');
    // 4,000 pieces: 125 blocks of 32, nothing loose.
    expect(delivered.held).toBe(125);
    delivered.add('!');
    expect(delivered.held).toBe(126);
    expect(delivered.text).toBe(`${' tok'.repeat(4000)}!`);
  });

  it('keeps empty pieces counted but adds nothing to the text', () => {
    const delivered = new DeliveredText();
    delivered.add('a');
    delivered.add('');
    delivered.add('b');
    expect(delivered.text).toBe('ab');
    expect(delivered.chars).toBe(2);
    expect(delivered.pieces).toBe(3);
    expect(delivered.lastPiece).toBe('b');
  });
});
