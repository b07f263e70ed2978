/**
 * Copies `text`: the Clipboard API in a secure context, else (a server reached over plain http) by selecting
 * `field` and the copy command. Throws when neither works.
 */
export async function copyText(text: string, field: HTMLInputElement | HTMLTextAreaElement | null): Promise<void> {
  if (typeof navigator.clipboard?.writeText === 'function') return navigator.clipboard.writeText(text);
  field?.select();
  if (!field || !document.execCommand('copy')) throw new Error('Copy is not available here.');
}
