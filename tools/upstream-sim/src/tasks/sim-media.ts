import { createCipheriv, createHash } from 'node:crypto';

// Files the task APIs hand out (videos, thumbnails, songs): real headers so a client or a
// relay can sniff the type, then pseudo-random bytes — not decodable, but the same for the same
// seed and different for another one, so a test can tell the file arrived whole and unmixed.

/** `length` pseudo-random bytes from `seed`: the AES-256-CTR keystream under its SHA-256 (fast, and the same everywhere). */
export function pseudoRandomBytes(seed: string, length: number): Buffer {
  const key = createHash('sha256').update(seed).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  return cipher.update(Buffer.alloc(Math.max(0, length)));
}

function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'ascii');
  return Buffer.concat([header, payload]);
}

/** An MP4 of `length` bytes (at least 40): an `ftyp` box (isom, iso2, avc1, mp41), then an `mdat` box of pseudo-random bytes. */
export function simMp4(seed: string, length: number): Buffer {
  const ftyp = box('ftyp', Buffer.from([...Buffer.from('isom'), 0, 0, 2, 0, ...Buffer.from('isomiso2avc1mp41')]));
  return Buffer.concat([ftyp, box('mdat', pseudoRandomBytes(seed, length - ftyp.length - 8))]);
}

/**
 * A WebP of `length` bytes (even, at least 26): `RIFF`, `WEBP`, one `VP8L` chunk whose header
 * carries `width` × `height` (up to 16384), then pseudo-random bytes.
 */
export function simWebp(seed: string, width: number, height: number, length: number): Buffer {
  const chunkSize = length - 20;
  const header = Buffer.alloc(25);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(length - 8, 4);
  header.write('WEBP', 8, 'ascii');
  header.write('VP8L', 12, 'ascii');
  header.writeUInt32LE(chunkSize, 16);
  header.writeUInt8(0x2f, 20); // the VP8L signature
  header.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21); // alpha 0, version 0
  return Buffer.concat([header, pseudoRandomBytes(seed, length - header.length)]);
}

/**
 * A baseline JPEG of `length` bytes (at least 64): SOI, APP0 (JFIF), SOF0 holding `width` ×
 * `height`, SOS, pseudo-random scan bytes (no 0xFF, so no marker hides in them), EOI.
 */
export function simJpeg(seed: string, width: number, height: number, length: number): Buffer {
  const soi = Buffer.from([0xff, 0xd8]);
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF'), 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  sof0.writeUInt16BE(height, 5);
  sof0.writeUInt16BE(width, 7);
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f, 0x00]);
  const eoi = Buffer.from([0xff, 0xd9]);
  const scan = pseudoRandomBytes(seed, length - soi.length - app0.length - sof0.length - sos.length - eoi.length).map((byte) =>
    byte === 0xff ? 0xfe : byte,
  );
  return Buffer.concat([soi, app0, sof0, sos, scan, eoi]);
}

/** A 28-bit number as ID3v2.4 writes sizes: seven bits a byte. */
function syncSafe(value: number): Buffer {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f]);
}

function id3Frame(id: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(id, 'ascii'), syncSafe(body.length), Buffer.from([0, 0]), body]);
}

/** An ID3v2.4 tag: `TIT2` (the title, UTF-8) and a `TXXX` `sim-seed` frame (a digest of the seed). */
export function id3Tag(title: string, seed: string): Buffer {
  const utf8 = 0x03;
  const digest = createHash('sha256').update(seed).digest('hex');
  const frames = Buffer.concat([
    id3Frame('TIT2', Buffer.concat([Buffer.from([utf8]), Buffer.from(title, 'utf8')])),
    id3Frame('TXXX', Buffer.concat([Buffer.from([utf8]), Buffer.from('sim-seed\0', 'utf8'), Buffer.from(digest, 'utf8')])),
  ]);
  return Buffer.concat([Buffer.from('ID3', 'ascii'), Buffer.from([4, 0, 0]), syncSafe(frames.length), frames]);
}
