import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ContactRequest } from '@atrium/contracts';
import { EMAIL_PATTERN, validateContact, type ContactErrors, type ContactValues } from './contact-validation';

/** The server's verdict: the first message per field of the contract's schema. */
function serverErrors(values: ContactValues): ContactErrors {
  const result = ContactRequest.safeParse(values);
  const errors: ContactErrors = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as keyof ContactErrors;
    errors[field] ??= issue.message;
  }
  return errors;
}

const ok = { name: 'Ada Lovelace', email: 'ada@example.test', message: 'Hello' };
const CASES: ContactValues[] = [
  ok,
  { name: '', email: '', message: '' },
  { name: ' \n', email: ' ', message: '\t' },
  { ...ok, name: 'x'.repeat(200) },
  { ...ok, name: 'x'.repeat(201) },
  { ...ok, name: `  ${'x'.repeat(200)}  ` },
  { ...ok, message: 'm'.repeat(5000) },
  { ...ok, message: 'm'.repeat(5001) },
  ...[
    'ada@',
    '@example.com',
    'ada@example',
    'ada@example.c',
    'ada example@example.com',
    'ada@exa mple.com',
    'ada..b@example.com',
    '.ada@example.com',
    'ada@-example.com',
    'ada@example.com.',
    'ada@@example.com',
    'a@b.co',
    "o'brien+tag@example.co.uk",
    'first.last@sub.example.org',
    '  spaced@example.com  ',
    'ünï@example.com',
    'ada@exämple.com',
    `${'a'.repeat(310)}@example.com`,
    `${'a'.repeat(309)}@example.com`,
    `${'a'.repeat(320)}@`,
  ].map((email) => ({ ...ok, email })),
];

describe('validateContact', () => {
  it('requires name, email and message', () => {
    expect(validateContact({ name: ' ', email: '', message: '\n' })).toEqual({
      name: 'Please enter your name.',
      email: 'Please enter your email address.',
      message: 'Please enter a message.',
    });
  });
  it('checks the email shape and lengths', () => {
    expect(validateContact({ name: 'Ada', email: 'ada@', message: 'Hi' })).toEqual({
      email: 'Please enter a valid email address.',
    });
    expect(validateContact({ name: 'Ada', email: 'ada@example.test', message: 'x'.repeat(5001) })).toEqual({
      message: 'Please keep your message under 5000 characters.',
    });
  });
  it('accepts a complete message', () => {
    expect(validateContact({ name: 'Ada', email: 'ada@example.test', message: 'Hello' })).toEqual({});
  });
  it('gives the verdicts and messages of the server’s schema on every case', () => {
    for (const values of CASES) expect([values, validateContact(values)]).toEqual([values, serverErrors(values)]);
  });
  it('uses zod’s email pattern', () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
  });
});
