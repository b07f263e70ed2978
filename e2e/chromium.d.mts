/** Types of chromium.mjs (plain JavaScript, so that bench/*.mjs can import it too). */
export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: string[];
