import { open } from 'node:fs/promises';
import type { UploadedFile } from '@chat-relay/wire';

/** Bytes read from the start of an upload to find its format's header. */
const HEAD_BYTES = 64 * 1024;
/** Speech is rarely coded below this: bytes ÷ it bounds the seconds of an unknown format. */
const LOWEST_BYTES_PER_SECOND = 2_000;
/** A plain guess for an unknown format (48 kbit/s), marked estimated where it is used. */
const TYPICAL_BYTES_PER_SECOND = 6_000;

/** A WAV file's length from its header: data bytes ÷ byte rate. */
export function wavSeconds(head: Buffer, size: number): number | undefined {
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  for (let offset = 12; offset + 8 <= head.length; ) {
    const id = head.toString('ascii', offset, offset + 4);
    const length = head.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 20 <= head.length) byteRate = head.readUInt32LE(offset + 16);
    if (id === 'data') {
      if (!byteRate) return undefined;
      // A streamed WAV may say 0 or 0xFFFFFFFF: the file's own size then.
      const data = length === 0 || length === 0xffffffff ? size - offset - 8 : Math.min(length, size - offset - 8);
      return Math.max(0, data) / byteRate;
    }
    offset += 8 + length + (length % 2);
  }
  return undefined;
}

const MP3_BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/** An MP3's length from its first frame's bitrate (exact for constant bitrate, an estimate otherwise). */
export function mp3Seconds(head: Buffer, size: number): number | undefined {
  let start = 0;
  if (head.toString('ascii', 0, 3) === 'ID3' && head.length >= 10) {
    // The tag's size is four 7-bit bytes (syncsafe).
    start = 10 + (((head[6] ?? 0) << 21) | ((head[7] ?? 0) << 14) | ((head[8] ?? 0) << 7) | (head[9] ?? 0));
  }
  for (let offset = start; offset + 4 <= head.length; offset += 1) {
    if (head[offset] !== 0xff || ((head[offset + 1] ?? 0) & 0xe0) !== 0xe0) continue;
    const b1 = head[offset + 1] ?? 0;
    const version = (b1 >> 3) & 0x3;
    const layer = (b1 >> 1) & 0x3;
    if (layer !== 0x1 || version === 0x1) continue; // Layer III only; 01 is reserved
    const index = ((head[offset + 2] ?? 0) >> 4) & 0xf;
    const kbps = (version === 0x3 ? MP3_BITRATES_V1_L3 : MP3_BITRATES_V2_L3)[index];
    if (!kbps) continue;
    return ((size - offset) * 8) / (kbps * 1000);
  }
  return undefined;
}

async function headOf(file: UploadedFile): Promise<Buffer> {
  const handle = await open(file.ref, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(HEAD_BYTES, file.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Seconds of audio in an upload, for what the upstream does not report (SPEC §8): exact for WAV,
 * from the bitrate for MP3; otherwise from the size — at the lowest speech bitrate for a
 * reservation's bound (`bound`), at a typical one for a charge.
 */
export async function audioSeconds(file: UploadedFile, bound: boolean): Promise<number> {
  const head = await headOf(file);
  const seconds = wavSeconds(head, file.size) ?? mp3Seconds(head, file.size);
  if (seconds !== undefined) return Math.round(seconds * 1000) / 1000;
  return Math.ceil(file.size / (bound ? LOWEST_BYTES_PER_SECOND : TYPICAL_BYTES_PER_SECOND));
}
