// The first import of every entry point (main.ts, ops/cli.ts): on a Node line Atrium does not support, say so and
// exit before anything else loads. Debian's own node (18 on Debian 12, 20 on 13) would otherwise crash in
// better-sqlite3 with SIGSEGV and print nothing (docs/DEPLOY.md, "Production install").
import { isSupportedNode, unsupportedNodeMessage } from '../../../scripts/node-lines.mjs';

if (!isSupportedNode() && process.env.ATRIUM_ALLOW_UNSUPPORTED_NODE !== '1') {
  process.stderr.write(`${unsupportedNodeMessage()}\n`);
  process.exit(1);
}
