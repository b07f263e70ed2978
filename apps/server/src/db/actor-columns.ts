/**
 * The `users` columns that make a signed-in actor (id, key, role, names, email, picture, whether disabled): what a
 * session cookie, an app password and a granted Login Flow each turn into, selected beside their own table's columns.
 */
export const ACTOR_USER_COLUMNS = [
  'users.id',
  'users.owner_key',
  'users.role',
  'users.name',
  'users.nickname',
  'users.email',
  'users.picture',
  'users.disabled_at',
] as const;
