import { wavDurationSeconds } from './audio';

/** Bytes per second assumed for audio that is not WAV (16 kHz 8-bit, or 8 kHz 16-bit). */
export const assumedBytesPerSecond = 16_000;
/** Words per segment (and so per SRT/VTT cue). */
const wordsPerSegment = 4;

export type TranscriptTask = 'transcribe' | 'translate';

export interface Segment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number;
  avg_logprob: number;
  compression_ratio: number;
  no_speech_prob: number;
}

export interface Word {
  word: string;
  start: number;
  end: number;
}

export interface Transcript {
  task: TranscriptTask;
  text: string;
  /** Seconds, from the WAV header, else bytes / 16000. */
  duration: number;
  segments: Segment[];
  words: Word[];
}

/** How long an upload plays: a WAV file's own header says; other formats count 16,000 bytes a second. */
export function audioDurationSeconds(data: Buffer): number {
  return wavDurationSeconds(data) ?? data.length / assumedBytesPerSecond;
}

const milliseconds = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/**
 * The simulated transcript of an upload: `Transcribed <size> bytes of <filename>.` (or
 * `Translated …`), its words spread evenly over the audio's duration, four words a segment.
 */
export function transcriptOf(task: TranscriptTask, file: { filename: string; data: Buffer }): Transcript {
  const verb = task === 'transcribe' ? 'Transcribed' : 'Translated';
  const text = `${verb} ${file.data.length} bytes of ${file.filename}.`;
  const duration = audioDurationSeconds(file.data);
  const spoken = text.split(' ');
  const words = spoken.map((word, index) => ({
    word: word.replace(/[.,!?]+$/, ''),
    start: milliseconds((duration * index) / spoken.length),
    end: milliseconds((duration * (index + 1)) / spoken.length),
  }));
  const segments: Segment[] = [];
  for (let first = 0; first < spoken.length; first += wordsPerSegment) {
    const group = spoken.slice(first, first + wordsPerSegment);
    const last = Math.min(first + wordsPerSegment, spoken.length) - 1;
    segments.push({
      id: segments.length,
      seek: 0,
      start: words[first]?.start ?? 0,
      end: words[last]?.end ?? duration,
      text: ` ${group.join(' ')}`,
      tokens: group.map((_, index) => 50_364 + first + index),
      temperature: 0,
      avg_logprob: -0.25,
      compression_ratio: 1,
      no_speech_prob: 0.01,
    });
  }
  return { task, text, duration, segments, words };
}

/** `00:01:02,345` (SRT, `separator` ',') or `00:01:02.345` (WebVTT, '.'). */
export function subtitleTime(seconds: number, separator: ',' | '.'): string {
  const total = Math.round(seconds * 1000);
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const secs = Math.floor((total % 60_000) / 1000);
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${separator}${pad(total % 1000, 3)}`;
}

/** SubRip: numbered cues, `-->` between times with a comma before the milliseconds, a blank line after each. */
export function toSrt(transcript: Transcript): string {
  return transcript.segments
    .map((segment, index) => `${index + 1}\n${subtitleTime(segment.start, ',')} --> ${subtitleTime(segment.end, ',')}\n${segment.text.trim()}\n\n`)
    .join('');
}

/** WebVTT: the `WEBVTT` line, then cues with a dot before the milliseconds. */
export function toVtt(transcript: Transcript): string {
  const cues = transcript.segments.map(
    (segment) => `${subtitleTime(segment.start, '.')} --> ${subtitleTime(segment.end, '.')}\n${segment.text.trim()}\n\n`,
  );
  return `WEBVTT\n\n${cues.join('')}`;
}
