import { AppError } from '../errors';

/**
 * A whole stream in one Buffer, for content that must be in memory at once (an image to decode, a file for an AI
 * service or an analyser). Past `max` bytes the stream is destroyed and `tooLarge()` is thrown, so a stream longer
 * than announced never fills the memory.
 */
export async function readAll(
  stream: AsyncIterable<unknown> & { destroy?: () => void },
  max: number,
  tooLarge: () => Error = () => new AppError('PAYLOAD_TOO_LARGE', `The content is larger than ${max} bytes.`),
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy?.();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
