import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

/**
 * deploy/compose.yaml as the tests read it: the subset of the Compose specification it uses, strictly (a misspelt key
 * is an error here, where Compose would ignore it), Compose's `${…}` interpolation, and the `podman run` arguments
 * that start its atrium service as declared when the database and Redis are the test machine's.
 */
export const repoRoot = path.resolve(import.meta.dirname, '../../../..');
export const COMPOSE_FILE = path.join(repoRoot, 'deploy/compose.yaml');
export const COMPOSE_S3_FILE = path.join(repoRoot, 'deploy/compose.s3.yaml');
export const COMPOSE_ENV_EXAMPLE = path.join(repoRoot, 'deploy/compose.env.example');

const Duration = z.string().regex(/^\d+(ms|s|m|h)$/);
const Healthcheck = z
  .object({
    test: z.tuple([z.enum(['CMD', 'CMD-SHELL'])], z.string()),
    interval: Duration,
    timeout: Duration,
    retries: z.number().int().positive(),
  })
  .strict();
const Environment = z.record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), z.string());

const Service = z
  .object({
    image: z.string(),
    restart: z.enum(['no', 'always', 'on-failure', 'unless-stopped']),
    depends_on: z.record(z.string(), z.object({ condition: z.literal('service_healthy') }).strict()).optional(),
    env_file: z.string().optional(),
    environment: Environment.optional(),
    command: z.array(z.string()).optional(),
    ports: z.array(z.string().regex(/^(127\.0\.0\.1:)?(\$\{[^}]+\}|\d+):\d+$/)).optional(),
    volumes: z.array(z.string().regex(/^[a-z][a-z0-9-]*:\/[^:]*$/)).optional(),
    ulimits: z.record(z.string(), z.object({ soft: z.number().int(), hard: z.number().int() }).strict()).optional(),
    stop_grace_period: Duration.optional(),
    profiles: z.array(z.string()).optional(),
    healthcheck: Healthcheck.optional(),
  })
  .strict();

export const ComposeFile = z
  .object({
    name: z.string(),
    services: z.record(z.string(), Service),
    volumes: z.record(z.string(), z.null()),
  })
  .strict();
export type ComposeFile = z.infer<typeof ComposeFile>;

/** A file given after another with `-f`: what it adds to or changes in the services before it. */
const ComposeOverride = z
  .object({
    services: z.record(z.string(), Service.partial()),
    volumes: z.record(z.string(), z.null()).optional(),
  })
  .strict();
type ComposeOverride = z.infer<typeof ComposeOverride>;

/** The file parsed and checked against the schema above (throws with every problem). */
export const readCompose = (file = COMPOSE_FILE): ComposeFile => ComposeFile.parse(parse(readFileSync(file, 'utf8')));

export const readComposeOverride = (file: string): ComposeOverride =>
  ComposeOverride.parse(parse(readFileSync(file, 'utf8')));

/**
 * `-f base -f override` as Compose merges them for the keys these files use: maps (environment, depends_on,
 * ulimits, volumes at the top) merge key by key, anything else in the override replaces the base's.
 */
export function mergeCompose(base: ComposeFile, override: ComposeOverride): ComposeFile {
  const services = { ...base.services };
  for (const [name, change] of Object.entries(override.services)) {
    const before = services[name];
    services[name] = Service.parse(
      before
        ? {
            ...before,
            ...change,
            environment: { ...before.environment, ...change.environment },
            depends_on: { ...before.depends_on, ...change.depends_on },
            ulimits: before.ulimits || change.ulimits ? { ...before.ulimits, ...change.ulimits } : undefined,
          }
        : change,
    );
  }
  return { ...base, services, volumes: { ...base.volumes, ...override.volumes } };
}

/** `NAME=value` lines of an env file (comments and blank lines skipped), as Compose reads `.env`. */
export function readEnvFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const at = line.indexOf('=');
      if (at < 1) throw new Error(`not NAME=value: ${line}`);
      return [line.slice(0, at), line.slice(at + 1)] as const;
    });
  return Object.fromEntries(entries);
}

/**
 * Compose's interpolation: `${NAME}`, `${NAME:-default}`, `${NAME:?message}` (an error when unset or empty) and `$$`
 * (a literal `$`, left for the container's shell).
 */
export function interpolate(text: string, variables: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (match, name?: string, kind?: string, rest = '') => {
      if (!name) return '$';
      const value = variables[name];
      if (value) return value;
      if (kind === '?') throw new Error(`${name}: ${rest}`);
      return kind === '-' ? rest : '';
    },
  );
}

/** Every `${NAME…}` a text refers to. */
export const referencedVariables = (text: string): string[] => [
  ...new Set([...text.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1] ?? '')),
];

export interface RunOptions {
  /** The values of `.env` (the env_file, and the source of interpolation). */
  env: Record<string, string>;
  envFile: string;
  /** Where each service the atrium service depends on really runs (a host name or address of this machine). */
  hosts: Record<string, string>;
  /** The named volumes' names for this run. */
  volumeNames: Record<string, string>;
  /**
   * Limits this machine allows, in place of the file's and besides them (the sandbox caps open files at 20,000, and
   * podman's default limits exceed its hard ones).
   */
  ulimits: Record<string, number>;
  name: string;
}

/** `--ulimit` values of a soft and hard limit each. */
export const machineUlimits = (limits: Record<string, number>) =>
  Object.fromEntries(Object.entries(limits).map(([name, limit]) => [name, { soft: limit, hard: limit }]));

/**
 * `podman run` arguments for the atrium service as compose.yaml declares it: its image, env_file, environment,
 * volumes and limits, on the host's network (the dependencies are this machine's own services, reached under the
 * service names through `--add-host`; PORT in `.env` takes the place of the published port).
 */
export function atriumRunArgs(compose: ComposeFile, options: RunOptions): string[] {
  const service = compose.services.atrium;
  if (!service) throw new Error('compose.yaml has no atrium service');
  const value = (text: string) => interpolate(text, options.env);
  const args = ['run', '--detach', '--name', options.name, '--network', 'host'];
  for (const dependency of Object.keys(service.depends_on ?? {})) {
    const host = options.hosts[dependency];
    if (!host) throw new Error(`no host given for the service ${dependency}`);
    args.push('--add-host', `${dependency}:${host}`);
  }
  if (service.env_file) args.push('--env-file', options.envFile);
  for (const [name, text] of Object.entries(service.environment ?? {})) args.push('--env', `${name}=${value(text)}`);
  for (const volume of service.volumes ?? []) {
    const [source = '', target = ''] = volume.split(':');
    args.push('--volume', `${options.volumeNames[source] ?? source}:${target}`);
  }
  const ulimits = { ...service.ulimits, ...machineUlimits(options.ulimits) };
  for (const [name, { soft, hard }] of Object.entries(ulimits)) args.push('--ulimit', `${name}=${soft}:${hard}`);
  const grace = /^(\d+)s$/.exec(service.stop_grace_period ?? '');
  if (grace) args.push('--stop-timeout', grace[1] ?? '');
  args.push(value(service.image));
  return args;
}
