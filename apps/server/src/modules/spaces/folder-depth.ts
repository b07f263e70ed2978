import { MAX_FOLDER_DEPTH } from '../../db/folder-walk';

/** The 409 when a create, move or restore would nest folders deeper than the cap (`MAX_FOLDER_DEPTH`). */
export const FOLDER_DEPTH_MESSAGE = `Folders can be nested at most ${MAX_FOLDER_DEPTH} levels deep.`;
