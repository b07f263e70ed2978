import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, EnvSchema, loadConfig } from '../../src/config';
import { VAPID_KEYS } from '../vapid-keys';
import {
  COMPOSE_ENV_EXAMPLE,
  COMPOSE_FILE,
  COMPOSE_S3_FILE,
  atriumRunArgs,
  interpolate,
  mergeCompose,
  readCompose,
  readComposeOverride,
  readEnvFile,
  referencedVariables,
  repoRoot,
} from './compose';

/**
 * deploy/compose.yaml and deploy/compose.env.example as an operator gets them (docs/DEPLOY.md, "Container"): the
 * YAML parses into the Compose keys it means (strictly: a misspelt key fails here), the services fit together and fit
 * the image deploy/container/build.sh makes, and the example env is refused unedited and accepted filled in. The
 * container tier (container.test.ts) runs the atrium service itself.
 */
const compose = readCompose();
const composeText = readFileSync(COMPOSE_FILE, 'utf8');
const s3Text = readFileSync(COMPOSE_S3_FILE, 'utf8');
const withS3 = mergeCompose(compose, readComposeOverride(COMPOSE_S3_FILE));
const example = readEnvFile(readFileSync(COMPOSE_ENV_EXAMPLE, 'utf8'));
const buildScript = readFileSync(path.join(repoRoot, 'deploy/container/build.sh'), 'utf8');
const containerfile = readFileSync(path.join(repoRoot, 'deploy/container/Containerfile'), 'utf8');
const { atrium, postgres, redis } = compose.services;

describe('deploy/compose.yaml', () => {
  it('runs Atrium after a healthy PostgreSQL and Redis, on the image build.sh tags, published on loopback only', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['atrium', 'postgres', 'redis']);
    expect(atrium?.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(postgres?.healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(redis?.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(interpolate(atrium?.image ?? '', {})).toBe('localhost/atrium:latest');
    expect(buildScript).toContain('IMAGE="${1:-localhost/atrium:latest}"');
    expect(atrium?.ports).toEqual(['127.0.0.1:${ATRIUM_PORT:-3000}:3000']);
    expect(containerfile).toMatch(/^\s*PORT=3000 \\$/m);
  });

  it("keeps Atrium's data folder in a named volume at the image's DATA_DIR", () => {
    expect(atrium?.volumes).toEqual(['atrium-data:/data']);
    expect(containerfile).toMatch(/^\s*DATA_DIR=\/data \\$/m);
    expect(containerfile).toMatch(/^VOLUME \/data$/m);
    const used = Object.values(compose.services).flatMap((service) => service.volumes ?? []);
    expect(used.map((volume) => volume.split(':')[0]).sort()).toEqual(Object.keys(compose.volumes).sort());
  });

  it("pairs PostgreSQL's major version with the image's pg_dump, so backups from the container work", () => {
    const client = /postgresql-client-(\d+)/.exec(buildScript)?.[1];
    expect(client).toBeDefined();
    expect(postgres?.image).toMatch(new RegExp(`/postgres:${client}-`));
    expect(atrium?.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(atrium?.environment?.REDIS_URL).toBe('redis://redis:6379');
  });

  it('pins every image it pulls to a version, each with a health check', () => {
    for (const [name, service] of Object.entries(withS3.services)) {
      if (name === 'atrium') continue;
      expect(service.image, name).toMatch(/:[\w.-]+$/);
      expect(service.image, name).not.toMatch(/:latest$/);
      expect(service.healthcheck, name).toBeDefined();
    }
  });

  it("with compose.s3.yaml, stores Atrium's files in its MinIO server once that is healthy", () => {
    expect(Object.keys(withS3.services).sort()).toEqual(['atrium', 'minio', 'postgres', 'redis']);
    expect(Object.keys(withS3.volumes).sort()).toEqual(['atrium-data', 'minio-data', 'postgres-data']);
    const merged = withS3.services.atrium;
    expect(merged?.depends_on?.minio).toEqual({ condition: 'service_healthy' });
    expect(merged?.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    expect(merged?.environment).toMatchObject({ BLOB_STORE: 's3', S3_ENDPOINT: 'http://minio:9000' });
    // The same credentials on both sides, and none without MINIO_ROOT_PASSWORD.
    const env = { POSTGRES_PASSWORD: 'abc', MINIO_ROOT_PASSWORD: 'minio-secret' };
    expect(interpolate(merged?.environment?.S3_SECRET_ACCESS_KEY ?? '', env)).toBe(
      interpolate(withS3.services.minio?.environment?.MINIO_ROOT_PASSWORD ?? '', env),
    );
    expect(interpolate(merged?.environment?.S3_ACCESS_KEY_ID ?? '', env)).toBe(
      interpolate(withS3.services.minio?.environment?.MINIO_ROOT_USER ?? '', env),
    );
    expect(() => interpolate(s3Text, { POSTGRES_PASSWORD: 'abc' })).toThrow(/MINIO_ROOT_PASSWORD: set/);
  });

  it('stops refusing to start only when the required secrets are given', () => {
    expect(() => interpolate(composeText, {})).toThrow(/POSTGRES_PASSWORD: set POSTGRES_PASSWORD in \.env/);
    expect(interpolate(atrium?.environment?.DATABASE_URL ?? '', { POSTGRES_PASSWORD: 'abc' })).toBe(
      'postgres://atrium:abc@postgres:5432/atrium',
    );
    // `$$` is a literal `$` for the container's shell.
    expect(interpolate(postgres?.healthcheck?.test[1] ?? '', {})).toBe(
      'pg_isready -U "$POSTGRES_USER" -d "$POSTGRES_DB"',
    );
  });

  it('becomes the podman run the container tier uses: same env file, environment, volume and image', () => {
    const args = atriumRunArgs(compose, {
      env: { POSTGRES_PASSWORD: 'abc', ATRIUM_IMAGE: 'localhost/atrium:test' },
      envFile: '/tmp/.env',
      hosts: { postgres: '127.0.0.1', redis: '127.0.0.1' },
      volumeNames: { 'atrium-data': 'atrium-test-data' },
      ulimits: { nofile: 20000 },
      name: 'atrium-test',
    });
    expect(args).toEqual(
      expect.arrayContaining([
        '--env-file',
        '/tmp/.env',
        'DATABASE_URL=postgres://atrium:abc@postgres:5432/atrium',
        'postgres:127.0.0.1',
        'atrium-test-data:/data',
        'nofile=20000:20000',
      ]),
    );
    expect(args.at(-1)).toBe('localhost/atrium:test');
  });
});

describe('deploy/compose.env.example', () => {
  it("names only variables the server reads or compose.yaml's own", () => {
    const composeOwn = referencedVariables(composeText + s3Text);
    expect(Object.keys(example).filter((name) => !(name in EnvSchema.shape) && !composeOwn.includes(name))).toEqual([]);
    // Every variable compose.yaml requires is in the example.
    const required = [...composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((match) => match[1] ?? '');
    expect(required.filter((name) => !(name in example))).toEqual([]);
    // compose.s3.yaml's, commented out (the file is optional).
    const s3Required = [...s3Text.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((match) => match[1] ?? '');
    const commented = readFileSync(COMPOSE_ENV_EXAMPLE, 'utf8');
    expect(s3Required.filter((name) => !commented.includes(`# ${name}=`))).toEqual([]);
  });

  it('is refused unedited, one line per placeholder secret; filled in, the server accepts it in production', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-compose-env-'));
    try {
      // What the container sees: the image's ENV, then env_file, then the service's environment.
      const environment = (env: Record<string, string>, service = atrium) =>
        Object.fromEntries(
          Object.entries(service?.environment ?? {}).map(([name, text]) => [name, interpolate(text, env)]),
        );
      const inContainer = (env: Record<string, string>, service = atrium) => ({
        NODE_ENV: 'production',
        HOST: '0.0.0.0',
        PORT: '3000',
        DATA_DIR: dataDir,
        ...env,
        ...environment(env, service),
      });
      let problems: string[] = [];
      try {
        loadConfig(inContainer(example));
      } catch (error) {
        problems = error instanceof ConfigError ? error.problems : [String(error)];
      }
      expect(problems.map((line) => line.split(':')[0])).toEqual([
        'VAPID_PUBLIC_KEY',
        'VAPID_PRIVATE_KEY',
        'SESSION_SECRET',
        'ADMIN_PASSWORD',
      ]);
      expect(problems.every((line) => line.includes('placeholder'))).toBe(true);
      const password = randomBytes(32).toString('hex');
      const filled = {
        ...example,
        POSTGRES_PASSWORD: password,
        SESSION_SECRET: randomBytes(48).toString('base64'),
        ADMIN_PASSWORD: `operator ${randomUUID()}`,
        VAPID_PUBLIC_KEY: VAPID_KEYS.publicKey,
        VAPID_PRIVATE_KEY: VAPID_KEYS.privateKey,
      };
      const config = loadConfig(inContainer(filled));
      expect(config).toMatchObject({
        isProduction: true,
        publicUrl: 'https://atrium.example.com',
        database: { kind: 'postgres', url: `postgres://atrium:${password}@postgres:5432/atrium` },
        blobStore: { kind: 'fs' },
        bus: { redisUrl: 'redis://redis:6379' },
      });
      const minioPassword = randomBytes(32).toString('hex');
      const s3 = loadConfig(inContainer({ ...filled, MINIO_ROOT_PASSWORD: minioPassword }, withS3.services.atrium));
      expect(s3.blobStore).toMatchObject({
        kind: 's3',
        endpoint: 'http://minio:9000',
        bucket: 'atrium-files',
        accessKeyId: 'atrium',
        secretAccessKey: minioPassword,
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
