/** OpenAI's speech audio is 24 kHz, 16-bit, mono (its `pcm` and `wav` formats). */
export const speechSampleRate = 24_000;
const bytesPerSample = 2;
const toneHz = 440;
const toneAmplitude = 0.3 * 32_767;

/** The 44-byte header of a mono 16-bit PCM WAV file holding `dataBytes` of samples. */
export function wavHeader(dataBytes: number, sampleRate = speechSampleRate): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * bytesPerSample, 28); // byte rate
  header.writeUInt16LE(bytesPerSample, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** `count` samples of a 440 Hz tone from sample `start` on, as 16-bit little-endian PCM. */
export function toneSamples(start: number, count: number, sampleRate = speechSampleRate): Buffer {
  const samples = Buffer.alloc(count * bytesPerSample);
  for (let index = 0; index < count; index += 1) {
    const value = Math.round(toneAmplitude * Math.sin((2 * Math.PI * toneHz * (start + index)) / sampleRate));
    samples.writeInt16LE(value, index * bytesPerSample);
  }
  return samples;
}

/** Samples in `seconds` of speech audio. */
export function speechSampleCount(seconds: number): number {
  return Math.round(seconds * speechSampleRate);
}

/** A whole WAV file: `seconds` of the tone. */
export function toneWav(seconds: number): Buffer {
  const samples = toneSamples(0, speechSampleCount(seconds));
  return Buffer.concat([wavHeader(samples.length), samples]);
}

/**
 * One silent MPEG-1 Layer III frame: 32 kbit/s, 32 kHz, mono, no CRC (header FF FB 18 C0),
 * side information all zero (no main data: silence). Decoders play it; encoding a tone would
 * need an MP3 encoder.
 */
const silentMp3Frame = (() => {
  const frame = Buffer.alloc(144);
  frame.set([0xff, 0xfb, 0x18, 0xc0], 0);
  return frame;
})();

/** Seconds one MP3 frame plays: 1152 samples at 32 kHz. */
export const mp3FrameSeconds = 1152 / 32_000;

/** `count` silent MP3 frames. */
export function silentMp3(count: number): Buffer {
  return Buffer.concat(Array.from({ length: count }, () => silentMp3Frame));
}

/**
 * How long a WAV file plays, from its `fmt ` and `data` chunks; undefined when `bytes` is not a
 * RIFF/WAVE file. A `data` size past the end of the file (a streamed WAV) counts what is there.
 */
export function wavDurationSeconds(bytes: Buffer): number | undefined {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= bytes.length) byteRate = bytes.readUInt32LE(offset + 16);
    if (id === 'data') {
      const available = Math.min(size, bytes.length - offset - 8);
      return byteRate ? available / byteRate : undefined;
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}
