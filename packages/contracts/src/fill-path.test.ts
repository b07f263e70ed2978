import { describe, expect, it } from 'vitest';
import { fillPath } from './fill-path';

describe('fillPath', () => {
  it('fills in every parameter, encoded', () => {
    expect(fillPath('/api/trash/:id/restore', { id: 'f 1/2' })).toBe('/api/trash/f%201%2F2/restore');
    expect(fillPath('/api/files/:id/versions/:versionId/content', { id: 'a', versionId: 'b?c' })).toBe(
      '/api/files/a/versions/b%3Fc/content',
    );
    expect(fillPath('/api/spaces')).toBe('/api/spaces');
  });

  it('leaves out an optional segment not given, slash and all, and fills it in when given', () => {
    expect(fillPath('/dashboard/file-download/:fileId?')).toBe('/dashboard/file-download');
    expect(fillPath('/dashboard/file-download/:fileId?', { fileId: null })).toBe('/dashboard/file-download');
    expect(fillPath('/dashboard/file-download/:fileId?', { fileId: 'a&b' })).toBe('/dashboard/file-download/a%26b');
    expect(fillPath('/dashboard/spaces/:workspaceId/folders/:folderId?', { workspaceId: 'w1' })).toBe(
      '/dashboard/spaces/w1/folders',
    );
  });

  it('refuses a required parameter not given', () => {
    expect(() => fillPath('/api/links/:id')).toThrow('/api/links/:id needs id');
    expect(() => fillPath('/api/links/:id', { id: null })).toThrow('needs id');
    expect(() => fillPath('/s/:token/:fileId?', { fileId: 'f' })).toThrow('needs token');
  });

  it('keeps an empty value (the callers decide whether empty means "not given")', () => {
    expect(fillPath('/api/folders/:id', { id: '' })).toBe('/api/folders/');
  });
});
