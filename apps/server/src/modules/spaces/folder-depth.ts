/**
 * How deep folders may nest: levels below a space's root (the root is depth 0, a folder in it depth 1), as Google
 * Drive allows (docs/PRODUCT.md#workspaces-and-folders). Every way a folder gets a parent checks it.
 */
export const MAX_FOLDER_DEPTH = 100;

/**
 * How far every recursive walk over `folders.parent_id` goes, up or down: a little above the cap, so a healthy tree
 * is always walked whole and a damaged one (a cycle, or rows stored deeper than the cap) still ends.
 */
export const FOLDER_WALK_BOUND = MAX_FOLDER_DEPTH + 10;

/** The 409 when a create, move or restore would nest folders deeper than the cap. */
export const FOLDER_DEPTH_MESSAGE = `Folders can be nested at most ${MAX_FOLDER_DEPTH} levels deep.`;
