import type { UploadedFile } from '@chat-relay/wire';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { audioSeconds, mp3Seconds, wavSeconds } from './audio-duration';

/** A RIFF chunk: id, little-endian length, body, and a pad byte when the length is odd. */
const chunk = (id: string, body: Buffer, declaredLength = body.length): Buffer => {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'ascii');
  header.writeUInt32LE(declaredLength, 4);
  return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};

/** A PCM `fmt ` chunk body: 16 bytes. */
const fmt = (sampleRate: number, channels: number, bitsPerSample: number): Buffer => {
  const body = Buffer.alloc(16);
  body.writeUInt16LE(1, 0); // PCM
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(sampleRate, 4);
  body.writeUInt32LE((sampleRate * channels * bitsPerSample) / 8, 8); // byte rate
  body.writeUInt16LE((channels * bitsPerSample) / 8, 12); // block align
  body.writeUInt16LE(bitsPerSample, 14);
  return body;
};

/** A whole WAV file: RIFF header, the chunks given, the RIFF size filled in. */
const wav = (...chunks: Buffer[]): Buffer => {
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), ...chunks]);
  const header = Buffer.alloc(8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
};

/** 16 kHz mono 16-bit: 32,000 bytes a second. */
const speechFmt = chunk('fmt ', fmt(16_000, 1, 16));
const pcm = (seconds: number) => Buffer.alloc(Math.round(seconds * 32_000), 0x11);

describe('wavSeconds', () => {
  it('reads 1.5 s of 16 kHz mono 16-bit PCM from the data size and byte rate', () => {
    const file = wav(speechFmt, chunk('data', pcm(1.5)));
    expect(file.length).toBe(44 + 48_000);
    expect(wavSeconds(file, file.length)).toBe(1.5);
    // The header alone is enough: the data size is in it.
    expect(wavSeconds(file.subarray(0, 44), file.length)).toBe(1.5);
  });

  it('uses the byte rate, so stereo 44.1 kHz takes its own rate', () => {
    const file = wav(chunk('fmt ', fmt(44_100, 2, 16)), chunk('data', Buffer.alloc(176_400 * 2)));
    expect(wavSeconds(file, file.length)).toBe(2);
  });

  it('skips chunks before the data (LIST, an odd-sized one with its pad byte)', () => {
    const list = chunk('LIST', Buffer.from('INFOISFT\x05\x00\x00\x00Lavf\x00', 'latin1'));
    const odd = chunk('junk', Buffer.from('abc'));
    const file = wav(speechFmt, list, odd, chunk('data', pcm(0.75)));
    expect(wavSeconds(file, file.length)).toBe(0.75);
    // The data chunk's offset moved: a wrong skip would read garbage or nothing.
    const fmtLast = wav(odd, speechFmt, chunk('data', pcm(0.5)));
    expect(wavSeconds(fmtLast, fmtLast.length)).toBe(0.5);
  });

  it.each([0, 0xffffffff])('a streamed WAV whose data size says %s: the rest of the file', (declared) => {
    const file = wav(speechFmt, chunk('data', pcm(2), declared));
    expect(wavSeconds(file.subarray(0, 44), file.length)).toBe(2);
  });

  it('a data size larger than the file (a truncated upload): only the bytes there are', () => {
    const file = wav(speechFmt, chunk('data', pcm(1), 32_000 * 60));
    expect(wavSeconds(file, file.length)).toBe(1);
  });

  it('undefined for what is not a RIFF WAVE, or has no byte rate before its data', () => {
    const good = wav(speechFmt, chunk('data', pcm(1)));
    const notRiff = Buffer.from(good);
    notRiff.write('RIFX', 0, 'ascii');
    expect(wavSeconds(notRiff, notRiff.length)).toBeUndefined();
    const notWave = Buffer.from(good);
    notWave.write('AVI ', 8, 'ascii');
    expect(wavSeconds(notWave, notWave.length)).toBeUndefined();
    expect(wavSeconds(Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00'), 10)).toBeUndefined();
    expect(wavSeconds(Buffer.alloc(0), 0)).toBeUndefined();
    const noFmt = wav(chunk('data', pcm(1)));
    expect(wavSeconds(noFmt, noFmt.length)).toBeUndefined();
    const noData = wav(speechFmt);
    expect(wavSeconds(noData, noData.length)).toBeUndefined();
  });

  it('a header cut short inside the fmt chunk is not a WAV it can read (no exception)', () => {
    const file = wav(speechFmt, chunk('data', pcm(1)));
    for (const length of [12, 20, 28, 30, 31, 35, 40]) {
      expect(() => wavSeconds(file.subarray(0, length), length)).not.toThrow();
      expect(wavSeconds(file.subarray(0, length), length)).toBeUndefined();
    }
  });
});

/**
 * An MP3 frame header: sync, version (3 MPEG1, 2 MPEG2, 0 MPEG2.5), layer (1 = Layer III),
 * no CRC, bitrate index, 44.1/22.05 kHz, no padding — followed by silence to the frame size.
 */
const frameHeader = (version: number, layer: number, bitrateIndex: number): Buffer =>
  Buffer.from([0xff, 0xe0 | (version << 3) | (layer << 1) | 1, bitrateIndex << 4, 0xc4]);

/** An ID3v2.4 tag of `bodyLength` bytes (syncsafe size), its body `fill`. */
const id3 = (bodyLength: number, fill = 0): Buffer => {
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, (bodyLength >> 21) & 0x7f, (bodyLength >> 14) & 0x7f, (bodyLength >> 7) & 0x7f, bodyLength & 0x7f]);
  return Buffer.concat([header, Buffer.alloc(bodyLength, fill)]);
};

/** `seconds` of constant-bitrate audio at `kbps`, as bytes after the first header. */
const audioBytes = (kbps: number, seconds: number) => Buffer.alloc((kbps * 1000 * seconds) / 8 - 4);

describe('mp3Seconds', () => {
  it('MPEG1 Layer III at 128 kbps: bytes × 8 ÷ 128,000', () => {
    const file = Buffer.concat([frameHeader(3, 1, 9), audioBytes(128, 3)]);
    expect(mp3Seconds(file, file.length)).toBe(3);
    expect(mp3Seconds(file.subarray(0, 1024), file.length)).toBe(3);
  });

  it('skips an ID3v2 tag by its syncsafe size, even when the tag holds bytes that look like a frame', () => {
    // 300 bytes: 0x00 0x00 0x02 0x2c syncsafe (a plain 32-bit read would say 556).
    const tag = id3(300);
    // A 32 kbps "frame" inside the tag (say, cover art bytes) must not be taken.
    frameHeader(3, 1, 1).copy(tag, 100);
    const file = Buffer.concat([tag, frameHeader(3, 1, 9), audioBytes(128, 2)]);
    expect(tag.length).toBe(310);
    expect(mp3Seconds(file, file.length)).toBe(2);
  });

  it('an ID3v2 tag larger than 127 bytes in each syncsafe byte position', () => {
    const tag = id3(20_000, 0xff);
    const file = Buffer.concat([tag, frameHeader(3, 1, 9), audioBytes(128, 1)]);
    expect(mp3Seconds(file, file.length)).toBe(1);
  });

  it('MPEG2 and MPEG2.5 Layer III use their own bitrate table', () => {
    // Index 8: 64 kbps in MPEG2's table (MPEG1 would say 112).
    const mpeg2 = Buffer.concat([frameHeader(2, 1, 8), audioBytes(64, 5)]);
    expect(mp3Seconds(mpeg2, mpeg2.length)).toBe(5);
    const mpeg25 = Buffer.concat([frameHeader(0, 1, 1), audioBytes(8, 4)]);
    expect(mp3Seconds(mpeg25, mpeg25.length)).toBe(4);
  });

  it('looks past what is not a Layer III frame header to the first one that is', () => {
    const file = Buffer.concat([
      Buffer.from('junk'),
      frameHeader(3, 2, 9), // Layer II
      frameHeader(1, 1, 9), // the reserved version
      frameHeader(3, 1, 0), // free bitrate
      frameHeader(3, 1, 15), // a bad bitrate index
      frameHeader(3, 1, 9),
      audioBytes(128, 1),
    ]);
    // Counted from that frame: the 20 bytes before it are not audio.
    expect(mp3Seconds(file, file.length)).toBe(1);
  });

  it('undefined for garbage, text, a WAV or nothing', () => {
    const text = Buffer.from('This is not audio at all, just a plain text file pretending to be one.\n'.repeat(50));
    expect(mp3Seconds(text, text.length)).toBeUndefined();
    const wavFile = wav(speechFmt, chunk('data', pcm(0.1)));
    expect(mp3Seconds(wavFile, wavFile.length)).toBeUndefined();
    expect(mp3Seconds(Buffer.from([0xff, 0xfb, 0x90]), 3)).toBeUndefined();
    expect(mp3Seconds(Buffer.alloc(0), 0)).toBeUndefined();
    // Only a tag, its frames beyond the bytes read.
    expect(mp3Seconds(id3(64), 1_000_000)).toBeUndefined();
  });
});

describe('audioSeconds', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-audio-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const upload = (name: string, bytes: Buffer, contentType = 'application/octet-stream'): UploadedFile => {
    const ref = path.join(dir, name);
    fs.writeFileSync(ref, bytes);
    return { field: 'file', filename: name, contentType, size: bytes.length, ref };
  };

  it('a WAV: exact, for a bound and a charge alike', async () => {
    const file = upload('speech.wav', wav(speechFmt, chunk('data', pcm(1.5))), 'audio/wav');
    expect(await audioSeconds(file, true)).toBe(1.5);
    expect(await audioSeconds(file, false)).toBe(1.5);
  });

  it('a WAV larger than the head it reads: from the header, not from the bytes read', async () => {
    const file = upload('long.wav', wav(speechFmt, chunk('data', pcm(10))));
    expect(file.size).toBeGreaterThan(64 * 1024);
    expect(await audioSeconds(file, false)).toBe(10);
  });

  it('an MP3, rounded to the millisecond', async () => {
    const file = upload('speech.mp3', Buffer.concat([id3(100), frameHeader(3, 1, 9), audioBytes(128, 2), Buffer.alloc(1)]), 'audio/mpeg');
    expect(await audioSeconds(file, true)).toBe(2);
  });

  it('an unknown format: from its size, at the lowest speech bitrate for a bound and a typical one for a charge', async () => {
    const file = upload('speech.ogg', Buffer.alloc(12_345, 0x4f));
    const bound = await audioSeconds(file, true);
    const estimate = await audioSeconds(file, false);
    expect(bound).toBe(7); // ⌈12,345 ÷ 2,000⌉
    expect(estimate).toBe(3); // ⌈12,345 ÷ 6,000⌉
    expect(bound).toBeGreaterThanOrEqual(estimate);
  });

  it('an empty upload is no audio', async () => {
    const file = upload('empty.wav', Buffer.alloc(0));
    expect(await audioSeconds(file, true)).toBe(0);
    expect(await audioSeconds(file, false)).toBe(0);
  });

  it('a tiny file that starts like a WAV falls back to the size, not to an exception', async () => {
    const file = upload('tiny.wav', wav(speechFmt, chunk('data', pcm(1))).subarray(0, 30));
    await expect(audioSeconds(file, true)).resolves.toBe(1);
  });
});
