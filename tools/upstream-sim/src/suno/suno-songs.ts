import { createHash } from 'node:crypto';
import { mp3FrameSeconds, silentMp3 } from '../endpoints/audio';
import { stripSimMarkers } from '../message-text';
import { id3Tag, simJpeg, simMp4 } from '../tasks/sim-media';

/** What a Suno task's songs or lyrics are made from: the submit's text fields (markers left out here). */
export interface SunoSongSource {
  prompt?: string | undefined;
  gpt_description_prompt?: string | undefined;
  tags?: string | undefined;
  title?: string | undefined;
  mv?: string | undefined;
  make_instrumental?: boolean | undefined;
  instrumental?: boolean | undefined;
}

/** One song as a finished music task reports it (its id and URLs aside). */
export interface SimulatedSong {
  title: string;
  /** The lyrics (`text`); '' for an instrumental. */
  lyrics: string;
  tags: string;
  durationSeconds: number;
  /** `mv`, new-api's default `chirp-v3-0` when none was sent. */
  modelName: string;
  majorModelVersion: string;
}

/** Songs a music task makes, as Suno does: two takes of one request. */
export const songsPerTask = 2;
/** What new-api puts in `mv` when a request leaves it out. */
export const defaultSunoModel = 'chirp-v3-0';
const styles = ['pop', 'rock', 'folk', 'electronic', 'jazz', 'soul'];
const moods = ['upbeat', 'dreamy', 'melancholic', 'energetic'];

function digest(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

function wordsOf(text: string): string[] {
  const words = text.match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.length > 0 ? words : ['silence'];
}

const capitalized = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** The first four words of `text`, capitalized: a title. */
function titleFrom(text: string): string {
  return wordsOf(text).slice(0, 4).map(capitalized).join(' ');
}

/** Two verses and a chorus built from the words of `text`, so a test sees them come back. */
export function lyricsAbout(text: string): string {
  const words = wordsOf(text);
  const line = (start: number): string => {
    const picked = Array.from({ length: 5 }, (_, offset) => words[(start + offset) % words.length] ?? '');
    return capitalized(picked.join(' '));
  };
  return `[Verse]\n${line(0)}\n${line(1)}\n\n[Chorus]\n${line(2)}, oh ${words[0] ?? ''}\n${line(3)}`;
}

/** `text` without `[sim:…]` markers, its line breaks kept: lyrics sent in custom mode are lines. */
function withoutMarkers(text: string): string {
  return text
    .replace(/\[sim:[a-z_-]+=[^\]]*\]/gi, '')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .trim();
}

/** The text fields without `[sim:…]` markers, in a fixed order: the seed of everything made. */
function cleanSource(source: SunoSongSource): Required<Pick<SunoSongSource, 'prompt' | 'gpt_description_prompt' | 'tags' | 'title' | 'mv'>> & { instrumental: boolean } {
  return {
    prompt: withoutMarkers(source.prompt ?? ''),
    gpt_description_prompt: stripSimMarkers(source.gpt_description_prompt ?? ''),
    tags: (source.tags ?? '').trim(),
    title: (source.title ?? '').trim(),
    mv: (source.mv ?? '').trim() || defaultSunoModel,
    instrumental: source.make_instrumental === true || source.instrumental === true,
  };
}

function songSeed(source: SunoSongSource, index: number): string {
  return JSON.stringify([cleanSource(source), index]);
}

/**
 * The two songs of a music task: the prompt is the lyrics (Suno's custom mode), else lyrics are
 * written from the description; none for an instrumental. Title and tags as sent, else made from
 * the text; 20–60 s each. The same request always gets the same songs.
 */
export function simulatedSunoSongs(source: SunoSongSource): SimulatedSong[] {
  const clean = cleanSource(source);
  const about = clean.prompt || clean.gpt_description_prompt;
  const lyrics = clean.instrumental ? '' : clean.prompt || lyricsAbout(clean.gpt_description_prompt);
  const version = /v(\d+)/.exec(clean.mv)?.[1];
  return Array.from({ length: songsPerTask }, (_, index) => {
    const hash = digest(songSeed(source, index));
    return {
      title: clean.title || titleFrom(about),
      lyrics,
      tags: clean.tags || `${styles[hash.readUInt8(0) % styles.length] ?? 'pop'}, ${moods[hash.readUInt8(1) % moods.length] ?? 'upbeat'}`,
      durationSeconds: 20 + (hash.readUInt16BE(2) % 4000) / 100,
      modelName: clean.mv,
      majorModelVersion: version ? `v${version}` : 'v3',
    };
  });
}

/** A lyrics task's answer: a title and lyrics written from the prompt. */
export function simulatedSunoLyrics(source: SunoSongSource): { title: string; text: string } {
  const prompt = stripSimMarkers(source.prompt ?? '');
  return { title: (source.title ?? '').trim() || titleFrom(prompt), text: lyricsAbout(prompt) };
}

/** The files a song is served as, under `/suno/files/<song id>…`. */
export type SongFile = 'audio' | 'image' | 'image_large' | 'video';

/**
 * The bytes of song `index` (0 or 1) of a music task, as `/suno/files/` serves them: `audio` an
 * MP3 (ID3v2.4 tag with the title, then silent frames for the song's duration), `image` and
 * `image_large` JPEG covers, `video` a short MP4. Made from the request, never from the random ids.
 */
export function simulatedSongFile(source: SunoSongSource, index: number, file: SongFile = 'audio'): { contentType: string; bytes: Buffer } {
  const song = simulatedSunoSongs(source)[index];
  if (!song) throw new Error(`a music task has songs 0 to ${songsPerTask - 1}, not ${index}`);
  const seed = `${songSeed(source, index)}:${file}`;
  switch (file) {
    case 'audio': {
      const frames = Math.ceil(song.durationSeconds / mp3FrameSeconds);
      return { contentType: 'audio/mpeg', bytes: Buffer.concat([id3Tag(song.title, seed), silentMp3(frames)]) };
    }
    case 'image':
      return { contentType: 'image/jpeg', bytes: simJpeg(seed, 400, 400, 4096) };
    case 'image_large':
      return { contentType: 'image/jpeg', bytes: simJpeg(seed, 1024, 1024, 16_384) };
    case 'video':
      return { contentType: 'video/mp4', bytes: simMp4(seed, 64 * 1024) };
    default: {
      const unknown: never = file;
      throw new Error(`unknown song file ${String(unknown)}`);
    }
  }
}
