export type ContactField = 'name' | 'email' | 'message';
export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The contact form's rules (mirroring the server's ContactRequest schema): all three required. */
export function validateContact(values: ContactValues): ContactErrors {
  const errors: ContactErrors = {};
  const name = values.name.trim();
  const email = values.email.trim();
  const message = values.message.trim();
  if (!name) errors.name = 'Please enter your name.';
  else if (name.length > 200) errors.name = 'Please keep your name under 200 characters.';
  if (!email) errors.email = 'Please enter your email address.';
  else if (!EMAIL.test(email) || email.length > 320) errors.email = 'Please enter a valid email address.';
  if (!message) errors.message = 'Please enter a message.';
  else if (message.length > 5000) errors.message = 'Please keep your message under 5000 characters.';
  return errors;
}
