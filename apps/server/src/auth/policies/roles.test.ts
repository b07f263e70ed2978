import { describe, expect, it } from 'vitest';
import { allows, strongerRole } from './roles';

describe('roles', () => {
  it('lets a viewer only read, an editor change and share content, an owner manage', () => {
    expect(['read', 'write', 'delete', 'share', 'manage'].map((a) => allows('viewer', a as never))).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(allows('editor', 'delete')).toBe(true);
    expect(allows('editor', 'share')).toBe(true);
    expect(allows('editor', 'manage')).toBe(false);
    expect(allows('owner', 'manage')).toBe(true);
    expect(allows(null, 'read')).toBe(false);
  });

  it('keeps the stronger of two roles', () => {
    expect(strongerRole('viewer', 'editor')).toBe('editor');
    expect(strongerRole('owner', 'viewer')).toBe('owner');
    expect(strongerRole(null, 'viewer')).toBe('viewer');
    expect(strongerRole(null, null)).toBe(null);
  });
});
