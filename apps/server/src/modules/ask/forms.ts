/**
 * The forms of a word "Ask your files" looks for (docs/PRODUCT.md#ask-your-files): a question's word stands for its
 * stem and the stem's inflected forms — terminated → terminat: terminate, terminates, termination, terminator — but
 * not every word that happens to start with it (system is not systemd, list is not listen, part is not partition).
 * The engines search exactly these forms, and an answer highlights them.
 */
const SUFFIXES = ['ings', 'ing', 'ions', 'ion', 'ed', 'es', 's', 'e'];
/** What may follow a stem in another form of its word. */
const ENDINGS = new Set(
  's es ed ing ings ion ions e er ers or ors ly al ally ation ations ment ments able ive'.split(' '),
);

/** A word without its commonest English ending (terminated, termination, terminate → terminat), at least 4 letters. */
export function stem(word: string): string {
  if (!/^\p{L}+$/u.test(word)) return word;
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
}

/** Whether `word` is `root` or `root` with an ending, maybe after its last letter doubled (stop → stopped). */
export function isFormOf(word: string, root: string): boolean {
  if (!word.startsWith(root)) return false;
  const rest = word.slice(root.length);
  if (rest === '' || ENDINGS.has(rest)) return true;
  return rest[0] === root.at(-1) && (rest.length === 1 || ENDINGS.has(rest.slice(1)));
}
