import type { DirectoryUser, ShareRole } from '@atrium/contracts';
import { isApiError } from '../../../lib/api-error';

export const ROLE_LABELS: Record<ShareRole, string> = { viewer: 'Viewer', editor: 'Editor' };

/** How a person is named in the share dialog: name, else nickname, else email, else their key. */
export const displayName = (user: Pick<DirectoryUser, 'name' | 'nickname' | 'email' | 'ownerKey'>) =>
  user.name ?? user.nickname ?? user.email ?? user.ownerKey;

/** The server's message for a failed call, else a generic one. */
export const errorText = (error: unknown) =>
  isApiError(error) ? error.message : 'Something went wrong. Please try again.';
