/** Lower-case, punctuation to spaces, single spaces: "Go to Pricing!" → "go to pricing". */
export function normalize(input: string): string {
  return input
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `phrase` occurs in normalised `text` as whole words. */
export function hasPhrase(text: string, phrase: string): boolean {
  return new RegExp(`(^| )${escape(phrase)}( |$)`).test(text);
}
