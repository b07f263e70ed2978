import { z } from 'zod';
import { endpoint } from './endpoint';

/** How the file browsers show a folder: rows, or cards with thumbnails. */
export const FileView = z.enum(['list', 'grid']);
export type FileView = z.infer<typeof FileView>;

/** A user's own settings, kept on the server so they follow the user to every browser (`GET /api/me/preferences`). */
export const UserPreferences = z
  .object({
    fileView: FileView.describe('The file browsers’ view: `list` (default) or `grid` (thumbnails)'),
  })
  .meta({ id: 'UserPreferences' });
export type UserPreferences = z.infer<typeof UserPreferences>;

/** `PUT /api/me/preferences`: the settings to change (others keep their value). */
export const UserPreferencesPatch = z
  .strictObject({ fileView: FileView.optional() })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'Name at least one preference to change.',
  })
  .meta({ id: 'UserPreferencesPatch' });
export type UserPreferencesPatch = z.infer<typeof UserPreferencesPatch>;

export const DEFAULT_PREFERENCES: UserPreferences = { fileView: 'list' };

/** The preferences endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const preferencesEndpoints = {
  get: endpoint({ method: 'GET', path: '/api/me/preferences', response: UserPreferences }),
  update: endpoint({
    method: 'PUT',
    path: '/api/me/preferences',
    body: UserPreferencesPatch,
    response: UserPreferences,
  }),
} as const;
