import { fromBuffer, type Entry } from 'yauzl';

/** Every entry of a zip: path → bytes (empty for directories). */
export async function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: Entry) => {
        if (entry.fileName.endsWith('/')) {
          entries.set(entry.fileName, Buffer.alloc(0));
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Every entry of a zip: path → its content as UTF-8 text ('' for directories). */
export async function unzipText(buffer: Buffer): Promise<Map<string, string>> {
  const entries = await unzip(buffer);
  return new Map([...entries].map(([name, bytes]) => [name, bytes.toString('utf8')]));
}
