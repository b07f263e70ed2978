import { describe, expect, it } from 'vitest';
import { validateContact } from './contact-validation';

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
});
