// Types of node-lines.mjs for the TypeScript projects that import it (the server's start check).
export declare const SUPPORTED_NODE_LINES: string;
export declare function isSupportedNode(version?: string): boolean;
export declare function unsupportedNodeMessage(version?: string, execPath?: string): string;
