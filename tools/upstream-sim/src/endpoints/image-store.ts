import { createHash } from 'node:crypto';

/** Enough for any test run; the oldest images go first beyond it. */
const maxImages = 10_000;

/**
 * The images answered by URL (`response_format: 'url'`, DALL·E's default), served at
 * `GET /files/<id>.png` without a key, as OpenAI's signed image URLs are. The id is a digest of
 * the image, so the same request gets the same URL.
 */
export class ImageStore {
  private readonly images = new Map<string, Buffer>();

  put(png: Buffer): string {
    const id = `img-${createHash('sha256').update(png).digest('hex').slice(0, 32)}`;
    this.images.delete(id);
    this.images.set(id, png);
    if (this.images.size > maxImages) {
      const oldest = this.images.keys().next().value;
      if (oldest !== undefined) this.images.delete(oldest);
    }
    return id;
  }

  get(id: string): Buffer | undefined {
    return this.images.get(id);
  }

  clear(): void {
    this.images.clear();
  }
}

/** `/files/<id>.png`: where a stored image is served. */
export const imageFilePath = /^\/files\/(img-[0-9a-f]{32})\.png$/;
