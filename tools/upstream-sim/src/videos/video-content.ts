import { stripSimMarkers } from '../message-text';
import { simJpeg, simMp4, simWebp } from '../tasks/sim-media';

/** What a video's files are made from: what was asked, never the job's (random) id. */
export interface VideoContentSource {
  /** As sent: `[sim:…]` markers are left out before the bytes are made. */
  prompt: string;
  seconds: string;
  size: string;
}

export type VideoContentVariant = 'video' | 'thumbnail' | 'spritesheet';

export interface VideoContent {
  contentType: string;
  bytes: Buffer;
}

/** Bytes of MP4 per second of video: a 4-second clip is 256 KiB, a 12-second one 768 KiB. */
export const videoBytesPerSecond = 64 * 1024;
const thumbnailBytes = 2048;
const spritesheetBytes = 8192;
/** The spritesheet: 4 × 4 frames, each 128 pixels wide. */
const spriteColumns = 4;
const spriteWidth = 128;

function dimensions(size: string): { width: number; height: number } {
  const [width = 720, height = 1280] = size.split('x').map(Number);
  return { width, height };
}

/**
 * The file `GET /v1/videos/{id}/content?variant=…` serves once the video is completed: an MP4
 * (`ftyp` then `mdat`, 64 KiB a second), a WebP thumbnail at the video's size, or a JPEG
 * spritesheet — each derived from prompt, seconds and size, so a test computes what it must get.
 */
export function simulatedVideoContent(source: VideoContentSource, variant: VideoContentVariant = 'video'): VideoContent {
  const seed = JSON.stringify([stripSimMarkers(source.prompt), source.seconds, source.size, variant]);
  const { width, height } = dimensions(source.size);
  switch (variant) {
    case 'video':
      return { contentType: 'video/mp4', bytes: simMp4(seed, Math.max(1, Number(source.seconds)) * videoBytesPerSecond) };
    case 'thumbnail':
      return { contentType: 'image/webp', bytes: simWebp(seed, width, height, thumbnailBytes) };
    case 'spritesheet': {
      const frameHeight = Math.round((spriteWidth * height) / width);
      return { contentType: 'image/jpeg', bytes: simJpeg(seed, spriteColumns * spriteWidth, spriteColumns * frameHeight, spritesheetBytes) };
    }
    default: {
      const unknown: never = variant;
      throw new Error(`unknown video variant ${String(unknown)}`);
    }
  }
}
