export type ContactField = 'name' | 'email' | 'message';
export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

/** zod's email pattern (`z.regexes.email`), which the server's schema applies; the test checks they are the same. */
export const EMAIL_PATTERN =
  // eslint-disable-next-line no-useless-escape -- zod's pattern character for character (the test compares the sources)
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/**
 * The contact form's rules: the server's `ContactRequest` schema (packages/contracts) without zod, so the public
 * page stays light. contact-validation.test.ts runs both on the same cases and requires the same verdicts and
 * messages.
 */
export function validateContact(values: ContactValues): ContactErrors {
  const errors: ContactErrors = {};
  const name = values.name.trim();
  const email = values.email.trim();
  const message = values.message.trim();
  if (!name) errors.name = 'Please enter your name.';
  else if (name.length > 200) errors.name = 'Please keep your name under 200 characters.';
  if (!email) errors.email = 'Please enter your email address.';
  else if (email.length > 320) errors.email = 'Please keep your email under 320 characters.';
  else if (!EMAIL_PATTERN.test(email)) errors.email = 'Please enter a valid email address.';
  if (!message) errors.message = 'Please enter a message.';
  else if (message.length > 5000) errors.message = 'Please keep your message under 5000 characters.';
  return errors;
}
