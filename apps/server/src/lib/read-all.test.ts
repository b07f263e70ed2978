import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAll } from './read-all';

describe('readAll', () => {
  it('answers the whole stream as one Buffer', async () => {
    const stream = Readable.from([Buffer.from('ab'), Buffer.from('cd')]);
    expect((await readAll(stream, 4)).toString()).toBe('abcd');
  });

  it('stops past the limit with the caller’s error and destroys the stream', async () => {
    const stream = Readable.from([Buffer.from('ab'), Buffer.from('cde')]);
    await expect(readAll(stream, 4, () => new Error('too large'))).rejects.toThrow('too large');
    expect(stream.destroyed).toBe(true);
  });
});
