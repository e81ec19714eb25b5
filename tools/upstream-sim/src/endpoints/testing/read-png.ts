// Test-only: reads a PNG as a decoder does — signature, chunk CRCs, IHDR, the inflated IDAT
// stream and its row filters — so a spec can tell the simulator's images are real PNGs.
import { inflateSync } from 'node:zlib';
import { crc32 } from '../png';

export interface ReadPng {
  width: number;
  height: number;
  /** The chunk types in order (`IHDR`, `IDAT`, …, `IEND`). */
  chunks: string[];
  /** Unfiltered RGB rows (filter type 0 only, which is what the simulator writes). */
  rgb: Buffer;
}

export function readPng(bytes: Buffer): ReadPng {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let header: Buffer | undefined;
  for (let offset = 8; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    expect({ type, crc: bytes.readUInt32BE(offset + 8 + length) }).toEqual({ type, crc: crc32(bytes.subarray(offset + 4, offset + 8 + length)) });
    chunks.push(type);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  expect(chunks[0]).toBe('IHDR');
  expect(chunks.at(-1)).toBe('IEND');
  if (!header) throw new Error('no IHDR');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([...header.subarray(8, 13)]).toEqual([8, 2, 0, 0, 0]);
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = 1 + width * 3;
  expect(raw.length).toBe(rowBytes * height);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    expect(raw[y * rowBytes]).toBe(0);
    rows.push(raw.subarray(y * rowBytes + 1, (y + 1) * rowBytes));
  }
  return { width, height, chunks, rgb: Buffer.concat(rows) };
}
