export declare const GPU_BINARY: RegExp;
