import { takeTurn } from '../../core/take-turn';

/** Above this many UTF-16 units a text is encoded a slice per turn of the event loop. */
export const LARGE_TEXT_UNITS = 1024 * 1024;
/** Units encoded in one go: a millisecond or two. */
const SLICE_UNITS = 512 * 1024;

/**
 * The bytes of `Buffer.from(text)`, in pieces of about 512 KiB (not copied into one), encoded a
 * piece at a time with other requests' work in between (take-turn.ts); a piece never ends between
 * the two halves of a surrogate pair.
 */
export async function encodeInSlices(text: string): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + SLICE_UNITS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    pieces.push(Buffer.from(text.slice(start, end), 'utf8'));
    start = end;
    if (start < text.length) await takeTurn();
  }
  return pieces;
}
