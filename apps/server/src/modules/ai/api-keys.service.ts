import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ApiKeyRecord, CreatedApiKey } from '@atrium/contracts';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { SessionUser } from '../auth/sessions.service';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository';

const KEY_PREFIX = 'atr_';
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

const present = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  createdBy: row.created_by,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

/** Admin-managed API keys for the compatibility endpoints. Keys are shown once and stored as SHA-256. */
export function createApiKeysService({ repo, clock }: { repo: ApiKeysRepository; clock: Clock }) {
  const LAST_USED_RESOLUTION_MS = 60_000;
  return {
    async create(admin: SessionUser, name: string): Promise<CreatedApiKey> {
      const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row: ApiKeyRow = {
        id: randomUUID(),
        name,
        key_hash: hashApiKey(key),
        prefix: key.slice(0, KEY_PREFIX.length + 6),
        created_by: admin.id,
        created_at: iso(clock.now()),
        last_used_at: null,
        revoked_at: null,
      };
      await repo.insert(row);
      return { ...present(row), key };
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
      if (!row) return null;
      const now = clock.now();
      if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
        await repo.touch(row.id, iso(now));
      }
      return present(row);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
