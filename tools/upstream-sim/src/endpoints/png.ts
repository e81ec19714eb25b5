import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/** The side of every simulated image: small, so thousands of answers cost nothing. */
export const simImageSide = 8;

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let crc = index;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

/** CRC-32 (ISO-HDLC, as PNG chunks and zip use it); Node 20's zlib has no `crc32` yet. */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * An 8×8 RGB PNG that any decoder reads: two colours taken from a hash of `seed`, in a
 * checkerboard, so the same prompt always gets the same picture and another prompt another.
 */
export function simPng(seed: string): Buffer {
  const hash = createHash('sha256').update(seed).digest();
  const header = Buffer.alloc(13);
  header.writeUInt32BE(simImageSide, 0);
  header.writeUInt32BE(simImageSide, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, deflate, no filter method, no interlace
  const rowBytes = 1 + simImageSide * 3;
  const pixels = Buffer.alloc(rowBytes * simImageSide);
  for (let y = 0; y < simImageSide; y += 1) {
    pixels[y * rowBytes] = 0; // filter type None
    for (let x = 0; x < simImageSide; x += 1) {
      const colour = (x + y) % 2 === 0 ? 0 : 3;
      hash.copy(pixels, y * rowBytes + 1 + x * 3, colour, colour + 3);
    }
  }
  return Buffer.concat([
    pngSignature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
