import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';

/** An email the e2e server sent, parsed. */
export interface E2eMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) address in the plain text, in order. */
  links: string[];
  /** A header's raw value (unfolded), e.g. `header('List-Unsubscribe')`. */
  header(name: string): string | undefined;
}

async function parse(file: string): Promise<E2eMail> {
  const parsed = await simpleParser(readFileSync(file));
  const to = [parsed.to ?? []].flat().flatMap((group) => group.value.map((address) => address.address ?? ''));
  const text = parsed.text ?? '';
  return {
    to,
    subject: parsed.subject ?? '',
    text,
    html: typeof parsed.html === 'string' ? parsed.html : '',
    links: [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((found) => found[0]),
    header: (name) => {
      const found = parsed.headerLines.find((line) => line.key === name.toLowerCase());
      return found?.line
        .slice(found.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim();
    },
  };
}

/**
 * Waits for an email to `to` whose subject contains (or matches) `subject`, received by the e2e SMTP server
 * (`e2e/mail-server.ts` writes each to `<E2E_DATA_DIR>/mail/`), and answers it parsed.
 */
export async function waitForMail(
  { to, subject }: { to: string; subject?: string | RegExp },
  timeoutMs = 20_000,
): Promise<E2eMail> {
  const folder = path.join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const seen = new Map<string, E2eMail>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith('.eml')) continue;
      let mail = seen.get(name);
      if (!mail) {
        mail = await parse(path.join(folder, name));
        seen.set(name, mail);
      }
      const subjectMatches =
        subject === undefined ||
        (typeof subject === 'string' ? mail.subject.includes(subject) : subject.test(mail.subject));
      if (mail.to.includes(to) && subjectMatches) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no email to ${to} (${String(subject)}) within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
