import type { Db } from '../../db';
import type { LoginChallengesTable, PasskeysTable } from '../../db/schema';

/** All SQL of the second factors: TOTP rows, recovery codes, pending sign-ins, the policy setting. */
export const createFactorsRepository = (db: Db) => ({
  findTotp: (userId: string) =>
    db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst(),

  /** A new, unconfirmed secret (replaces an unconfirmed one; a confirmed one is removed first by the caller). */
  async putPendingTotp(userId: string, secret: string, now: string) {
    await db.deleteFrom('totp_factors').where('user_id', '=', userId).where('confirmed_at', 'is', null).execute();
    await db
      .insertInto('totp_factors')
      .values({ user_id: userId, secret, created_at: now, confirmed_at: null, last_used_step: null })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  },

  /**
   * Records `step` as used if it is later than the last one used; false when another request took it (a replay).
   * One statement, so two requests with the same code cannot both pass.
   */
  async useStep(userId: string, step: number, confirmAt?: string): Promise<boolean> {
    const result = await db
      .updateTable('totp_factors')
      .set({ last_used_step: step, ...(confirmAt ? { confirmed_at: confirmAt } : {}) })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async deleteTotp(userId: string) {
    await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
  },

  async replaceRecoveryCodes(userId: string, hashes: string[], now: string) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('recovery_codes')
        .values(hashes.map((code_hash) => ({ code_hash, user_id: userId, created_at: now, used_at: null })))
        .execute();
    });
  },

  async deleteRecoveryCodes(userId: string) {
    await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  },

  /** Spends the code if it is the user's and unused; false otherwise (one statement: single use under races). */
  async useRecoveryCode(userId: string, hash: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('code_hash', '=', hash)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async recoveryCodesLeft(userId: string): Promise<number> {
    const row = await db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async countPasskeys(userId: string): Promise<number> {
    const row = await db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  listPasskeys: (userId: string) =>
    db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),

  findPasskey: (id: string) => db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst(),

  async insertPasskey(row: PasskeysTable) {
    await db.insertInto('passkeys').values(row).execute();
  },

  async renamePasskey(userId: string, id: string, name: string): Promise<boolean> {
    const result = await db
      .updateTable('passkeys')
      .set({ name })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async deletePasskey(userId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('passkeys')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async usePasskey(id: string, counter: number, now: string) {
    await db.updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
  },

  /** Takes a challenge once: answers its row and deletes it (null when missing, expired or of another kind). */
  async takeChallenge(id: string, kind: LoginChallengesTable['kind'], now: string) {
    const row = await db
      .selectFrom('login_challenges')
      .selectAll()
      .where('id', '=', id)
      .where('kind', '=', kind)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    const result = await db.deleteFrom('login_challenges').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1 ? row : null;
  },

  async deletePasskeys(userId: string) {
    await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
  },

  async insertChallenge(row: LoginChallengesTable) {
    await db.insertInto('login_challenges').values(row).execute();
  },

  findChallenge: (id: string, now: string) =>
    db.selectFrom('login_challenges').selectAll().where('id', '=', id).where('expires_at', '>', now).executeTakeFirst(),

  /** Counts one attempt on a pending sign-in; answers the attempts so far. */
  async countAttempt(id: string): Promise<number> {
    await db
      .updateTable('login_challenges')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
    const row = await db.selectFrom('login_challenges').select('attempts').where('id', '=', id).executeTakeFirst();
    return row?.attempts ?? Number.POSITIVE_INFINITY;
  },

  async setChallenge(id: string, challenge: string) {
    await db.updateTable('login_challenges').set({ challenge }).where('id', '=', id).execute();
  },

  async deleteChallenge(id: string) {
    await db.deleteFrom('login_challenges').where('id', '=', id).execute();
  },

  async deleteChallengesOf(userId: string) {
    await db.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
  },

  async sweepChallenges(now: string) {
    await db.deleteFrom('login_challenges').where('expires_at', '<=', now).execute();
  },

  async getSetting(key: string): Promise<string | undefined> {
    const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  },

  async setSetting(key: string, value: string, updatedBy: string | null, now: string) {
    await db
      .insertInto('settings')
      .values({ key, value, updated_by: updatedBy, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_by: updatedBy, updated_at: now }))
      .execute();
  },
});

export type FactorsRepository = ReturnType<typeof createFactorsRepository>;
