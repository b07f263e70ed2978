/** Escapes LIKE's wildcards (`escape '\'`). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
