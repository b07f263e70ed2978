import { FOLDER_DEPTH_MESSAGE } from './folder-depth';

/** The 400/409 messages of folder changes. */
export const FOLDER_MESSAGES = {
  rootFixed: 'The root folder of a space cannot be renamed, moved or deleted.',
  otherSpace: 'Folders can only be moved within their space.',
  parentElsewhere: 'That parent folder is not in this workspace.',
  cycle: 'A folder cannot be moved into itself or into one of its subfolders.',
  tooDeep: FOLDER_DEPTH_MESSAGE,
  nameTaken: (name: string) => `A folder named “${name}” already exists here.`,
  noFreeName: 'Could not find a free name for the folder. Please try again.',
  badCursor: 'The cursor is not valid for this folder and sort. Start again from the first page.',
  folderNotInWorkspace: 'That folder is not in this workspace.',
  folderNotInUserSpace: "That folder is not in that user's space.",
  userOrWorkspace: 'Send userId or workspaceId, not both.',
} as const;
