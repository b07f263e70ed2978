import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { claimMeansAdmin } from './oidc.service';

describe('claimMeansAdmin', () => {
  const values = ['atrium-admins', 'ops'];
  it('is undefined without a configured claim', () => {
    expect(claimMeansAdmin(['atrium-admins'], undefined, values)).toBeUndefined();
  });
  it('matches a list, or a string separated by spaces or commas, exactly', () => {
    expect(claimMeansAdmin(['staff', 'ops'], 'groups', values)).toBe(true);
    expect(claimMeansAdmin('staff atrium-admins', 'groups', values)).toBe(true);
    expect(claimMeansAdmin('staff,ops', 'groups', values)).toBe(true);
    expect(claimMeansAdmin(['atrium-admins-not'], 'groups', values)).toBe(false);
    expect(claimMeansAdmin('ATRIUM-ADMINS', 'groups', values)).toBe(false);
  });
  it('is false for a missing or malformed claim', () => {
    expect(claimMeansAdmin(undefined, 'groups', values)).toBe(false);
    expect(claimMeansAdmin({ admin: true }, 'groups', values)).toBe(false);
    expect(claimMeansAdmin([1, null], 'groups', values)).toBe(false);
  });
});

describe('OIDC admin role mapping configuration', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atrium-claim-')) };
  it('maps groups ∋ atrium-admins with the embedded provider by default', () => {
    expect(loadConfig(base).oidc).toMatchObject({
      mode: 'embedded',
      adminClaim: 'groups',
      adminValues: ['atrium-admins'],
    });
  });
  it('maps nothing with an external provider unless configured', () => {
    const external = {
      ...base,
      OIDC_ISSUER: 'https://idp.example',
      OIDC_CLIENT_ID: 'c',
      OIDC_CLIENT_SECRET: 's',
    };
    expect(loadConfig(external).oidc?.adminClaim).toBeUndefined();
    expect(
      loadConfig({ ...external, OIDC_ADMIN_CLAIM: 'roles', OIDC_ADMIN_VALUES: 'admin, owner' }).oidc,
    ).toMatchObject({ adminClaim: 'roles', adminValues: ['admin', 'owner'] });
  });
  it('refuses a claim without values', () => {
    expect(() => loadConfig({ ...base, OIDC_ADMIN_CLAIM: 'groups' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, OIDC_ADMIN_CLAIM: 'groups', OIDC_ADMIN_VALUES: ' , ' })).toThrow(
      /OIDC_ADMIN_VALUES/,
    );
  });
  it('reads AUDIT_RETENTION_DAYS (default 365)', () => {
    expect(loadConfig(base).audit.retentionDays).toBe(365);
    expect(loadConfig({ ...base, AUDIT_RETENTION_DAYS: '30' }).audit.retentionDays).toBe(30);
    expect(() => loadConfig({ ...base, AUDIT_RETENTION_DAYS: '0' })).toThrow(ConfigError);
  });
});
