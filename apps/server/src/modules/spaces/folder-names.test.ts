import { describe, expect, it } from 'vitest';
import { checkFolderName, FOLDER_NAME_MESSAGES, numberedFolderName } from './folder-names';

describe('folder names', () => {
  it('keeps a good name (NFC, trimmed) and refuses bad ones with the reason', () => {
    expect(checkFolderName('  Reports 2026 ')).toBe('Reports 2026');
    expect(checkFolderName('Cafe\u0301')).toBe('Café');
    const refusal = (name: string) => {
      try {
        checkFolderName(name);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal('   ')).toBe(FOLDER_NAME_MESSAGES.empty);
    expect(refusal('a/b')).toBe(FOLDER_NAME_MESSAGES.slash);
    expect(refusal('a\\b')).toBe(FOLDER_NAME_MESSAGES.slash);
    expect(refusal('..')).toBe(FOLDER_NAME_MESSAGES.dots);
    expect(refusal('.')).toBe(FOLDER_NAME_MESSAGES.dots);
    expect(refusal('a\u0000b')).toBe(FOLDER_NAME_MESSAGES.control);
    expect(refusal('evil\u202Etxt.exe')).toBe(FOLDER_NAME_MESSAGES.control);
    expect(refusal('x'.repeat(256))).toBe(FOLDER_NAME_MESSAGES.long);
    expect(refusal('x'.repeat(255))).toBe('accepted');
  });

  it('numbers a taken name without treating dots as an extension, within 255 characters', () => {
    expect(numberedFolderName('Reports', 0)).toBe('Reports');
    expect(numberedFolderName('Reports', 1)).toBe('Reports (1)');
    expect(numberedFolderName('v1.2', 2)).toBe('v1.2 (2)');
    const long = numberedFolderName('x'.repeat(255), 12);
    expect(long).toHaveLength(255);
    expect(long.endsWith('x (12)')).toBe(true);
  });
});
