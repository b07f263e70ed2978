import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/** The e2e server's SMTP server: `E2E_PORT + 1000` on loopback. */
export const mailPort = () => Number(process.env.E2E_PORT ?? 3123) + 1000;

/**
 * Playwright's global setup: a real SMTP server (smtp-server; no TLS, no authentication) that writes each message it
 * receives, as sent, to `<E2E_DATA_DIR>/mail/<n>.eml` (`e2e/mail.ts` reads them). Answers its teardown.
 */
export default async function startMailServer() {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (see e2e/playwright.config.ts)');
  const folder = path.join(dataDir, 'mail');
  mkdirSync(folder, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        writeFileSync(path.join(folder, `${Date.now()}-${count}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(mailPort(), '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
