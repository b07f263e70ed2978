import { displayNameOf } from '../../auth/actor';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_TEXTS, type ApiKeyRecord, type CreatedApiKey } from '@atrium/contracts';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { SessionUser } from '../auth';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository';

const KEY_PREFIX = 'atr_';
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

interface Creator {
  creator_name?: string | null;
  creator_nickname?: string | null;
  creator_key?: string | null;
}

const present = (row: ApiKeyRow & Creator): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  createdBy: row.created_by,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
  expiresAt: row.expires_at,
  createdByName: displayNameOf({ name: row.creator_name, nickname: row.creator_nickname, ownerKey: row.creator_key }),
});

/** Whether a key is past its expiry (ISO-8601) at `now`. */
const expired = (row: ApiKeyRow, now: Date) => row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime();

/** Admin-managed API keys for the compatibility endpoints. Keys are shown once and stored as SHA-256. */
export function createApiKeysService({ repo, clock }: { repo: ApiKeysRepository; clock: Clock }) {
  const LAST_USED_RESOLUTION_MS = 60_000;
  return {
    /** `expiresAt` (ISO-8601, in the future) or null/undefined: never expires. */
    async create(admin: SessionUser, name: string, expiresAt?: string | null): Promise<CreatedApiKey> {
      const now = clock.now();
      if (expiresAt && Date.parse(expiresAt) <= now.getTime()) {
        throw new AppError('VALIDATION_FAILED', API_KEY_TEXTS.expiryInPast, {
          details: [{ path: 'body.expiresAt', message: API_KEY_TEXTS.expiryInPast }],
        });
      }
      const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row: ApiKeyRow = {
        id: randomUUID(),
        name,
        key_hash: hashApiKey(key),
        prefix: key.slice(0, KEY_PREFIX.length + 6),
        created_by: admin.id,
        created_at: iso(now),
        last_used_at: null,
        revoked_at: null,
        expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
      };
      await repo.insert(row);
      return { ...present((await repo.findById(row.id)) ?? row), key };
    },
    async list(): Promise<ApiKeyRecord[]> {
      return (await repo.list()).map(present);
    },
    async revoke(id: string): Promise<ApiKeyRecord> {
      const row = await repo.findById(id);
      if (!row) throw new AppError('NOT_FOUND', 'There is no such API key.');
      if (!row.revoked_at) await repo.revoke(id, iso(clock.now()));
      return present((await repo.findById(id)) ?? row);
    },
    /** The key's record when it is valid and not revoked, else null. */
    async verify(key: string): Promise<ApiKeyRecord | null> {
      if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
      const row = await repo.findActiveByHash(hashApiKey(key));
      const now = clock.now();
      if (!row || expired(row, now)) return null;
      if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
        await repo.touch(row.id, iso(now));
      }
      return present(row);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
