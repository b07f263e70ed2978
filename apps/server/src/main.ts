// Before anything else: an unsupported Node exits here with a message (node-check.ts).
import './node-check';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { loadDotEnv } from './env-file';
import { versionLine } from './lib/build-info';

async function main() {
  if (process.argv.includes('--version')) {
    process.stdout.write(`${versionLine(import.meta.dirname)}\n`);
    return;
  }
  let config;
  try {
    // `.env` in the working folder, under the real environment (see .env.example).
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Atrium is running at ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Atrium failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
