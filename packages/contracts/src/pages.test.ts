import { describe, expect, it } from 'vitest';
import { folderHref, navLabel, pageHref, pagePattern, pagePatternBelow, PAGES } from './pages';

describe('page table', () => {
  it('gives every page one address, and route patterns below the root or the dashboard', () => {
    const patterns = Object.values(PAGES).map(pagePattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(pagePattern(PAGES.fileDownload)).toBe('/dashboard/file-download/:fileId?');
    expect(pagePatternBelow(PAGES.fileDownload, PAGES.dashboard.path)).toBe('file-download/:fileId?');
    expect(pagePatternBelow(PAGES.dashboard, PAGES.dashboard.path)).toBe('');
    expect(pagePatternBelow(PAGES.publicLink, PAGES.home.path)).toBe('s/:token');
    expect(() => pagePatternBelow(PAGES.pricing, PAGES.dashboard.path)).toThrow('/pricing is not below /dashboard');
  });

  it('fills in parameters encoded, leaves out optional ones and refuses a missing required one', () => {
    expect(pageHref(PAGES.fileDownload, { fileId: 'a b/c' })).toBe('/dashboard/file-download/a%20b%2Fc');
    expect(pageHref(PAGES.fileDownload)).toBe('/dashboard/file-download');
    expect(pageHref(PAGES.members, { workspaceId: 'w1' })).toBe('/dashboard/spaces/w1/members');
    expect(() => pageHref(PAGES.members)).toThrow('needs workspaceId');
    expect(folderHref(null)).toBe('/dashboard/spaces/personal/folders');
    expect(folderHref(null, 'f 1')).toBe('/dashboard/spaces/personal/folders/f%201');
    expect(folderHref('w/1', 'f1')).toBe('/dashboard/spaces/w%2F1/folders/f1');
    expect(folderHref('w1', null)).toBe('/dashboard/spaces/w1/folders');
  });

  it('names sidebar entries as the sidebar shows them', () => {
    expect([navLabel(PAGES.dashboard), navLabel(PAGES.files), navLabel(PAGES.fileStats)]).toEqual([
      'Home',
      'My files (personal)',
      'File Stats',
    ]);
  });
});
