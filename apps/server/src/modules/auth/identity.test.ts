import { describe, expect, it } from 'vitest';
import { csrfRejection } from '../../plugins/csrf';
import { baseOwnerKey, ownerKeyCandidate } from './auth.service';
import { safeReturnTo } from './oidc.service';
import { createSealer } from './sealed-cookie';

const site = 'http://localhost:3000';

describe('safeReturnTo', () => {
  it('keeps same-origin paths with query and hash', () => {
    expect(safeReturnTo('/dashboard/files?x=1#top', site)).toBe('/dashboard/files?x=1#top');
  });
  it.each([
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    'dashboard',
    '/a\nb',
    7,
  ])('falls back for %s', (value) => {
    expect(safeReturnTo(value, site)).toBe('/dashboard');
  });
});

describe('csrfRejection', () => {
  it('passes same-origin and header-less requests', () => {
    expect(csrfRejection({ origin: site, 'sec-fetch-site': 'same-origin' }, site)).toBeUndefined();
    expect(csrfRejection({}, site)).toBeUndefined();
    expect(csrfRejection({ 'sec-fetch-site': 'none' }, site)).toBeUndefined();
  });
  it('refuses other origins and cross-site fetches', () => {
    expect(csrfRejection({ origin: 'https://evil.example' }, site)).toMatch(/Origin/);
    expect(csrfRejection({ origin: 'null' }, site)).toMatch(/Origin/);
    expect(csrfRejection({ 'sec-fetch-site': 'cross-site' }, site)).toMatch(/cross-site/);
    expect(csrfRejection({ origin: site, 'sec-fetch-site': 'same-site' }, site)).toMatch(/same-site/);
  });
});

describe('owner keys', () => {
  const profile = { issuer: 'https://idp', subject: 'sub-1' };
  it('takes nickname, else name, else email, else the subject', () => {
    expect(baseOwnerKey({ ...profile, nickname: 'ali', name: 'Alice', email: 'a@x' })).toBe('ali');
    expect(baseOwnerKey({ ...profile, nickname: ' ', name: 'Alice', email: 'a@x' })).toBe('Alice');
    expect(baseOwnerKey({ ...profile, email: 'a@x' })).toBe('a@x');
    expect(baseOwnerKey(profile)).toBe('user-sub-1');
  });
  it('never gives an identity-provider user the admin key', () => {
    expect(baseOwnerKey({ ...profile, nickname: 'Admin' })).toBe('Admin-user');
  });
  it('numbers taken keys', () => {
    expect([0, 1, 2].map((n) => ownerKeyCandidate('bob', n))).toEqual(['bob', 'bob-2', 'bob-3']);
  });
});

describe('sealed cookies', () => {
  const sealer = createSealer('s'.repeat(32), 'test');
  it('round-trips a value until it expires', () => {
    const sealed = sealer.seal({ a: 1 }, 1000, 0);
    expect(sealer.unseal(sealed, 999)).toEqual({ a: 1 });
    expect(sealer.unseal(sealed, 1000)).toBeUndefined();
  });
  it('rejects tampering and other keys', () => {
    const sealed = sealer.seal({ a: 1 }, 1000, 0);
    // Change the second-to-last character (always a data character in base64url) to a different one.
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(sealer.unseal(flipped, 1)).toBeUndefined();
    expect(createSealer('t'.repeat(32), 'test').unseal(sealed, 1)).toBeUndefined();
    expect(createSealer('s'.repeat(32), 'other').unseal(sealed, 1)).toBeUndefined();
    expect(sealer.unseal('garbage', 1)).toBeUndefined();
  });
});
