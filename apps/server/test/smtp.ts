import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the test SMTP server received, parsed (mailparser). */
export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every http(s) address in the plain text, in order. */
  links: string[];
  headers: ParsedMail['headers'];
  /** A header's raw value as sent (unfolded), e.g. `header('List-Unsubscribe')`; undefined when absent. */
  header(name: string): string | undefined;
}

export interface TestSmtp {
  port: number;
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  received: ReceivedMail[];
  /** The first message (already received or arriving within `timeoutMs`) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((found) => found[0]);

/**
 * A real SMTP server (smtp-server) on a loopback port for tests: no TLS, no authentication; every message is parsed
 * with mailparser and kept in `received`. `port` 0: a free one.
 */
export async function startSmtp(port = 0): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            links: linksIn(text),
            headers: parsed.headers,
            header: (name) => {
              const found = parsed.headerLines.find((line) => line.key === name.toLowerCase());
              return found?.line
                .slice(found.line.indexOf(':') + 1)
                .replace(/\r?\n[ \t]+/g, ' ')
                .trim();
            },
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP server did not bind');
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching email within ${timeoutMs} ms (received ${received.length})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
