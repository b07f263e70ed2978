import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Debian's rclone against Atrium's WebDAV tree as the Nextcloud vendor: a remote named `name` at
 * `{baseUrl}/remote.php/dav/files/{user}` with an app password, configured through environment variables only
 * (no config file). Whole-file PUTs (chunked uploads are the Nextcloud endpoints' own tests). Answers `rclone(…args)`,
 * which throws with rclone's output when it fails.
 */
export async function rcloneRemote({
  name,
  baseUrl,
  user,
  password,
}: {
  name: string;
  baseUrl: string;
  user: string;
  password: string;
}) {
  const { stdout: obscured } = await run('rclone', ['obscure', password]);
  const key = `RCLONE_CONFIG_${name.toUpperCase()}`;
  const env = {
    ...process.env,
    [`${key}_TYPE`]: 'webdav',
    [`${key}_URL`]: `${baseUrl}/remote.php/dav/files/${user}`,
    [`${key}_VENDOR`]: 'nextcloud',
    [`${key}_USER`]: user,
    [`${key}_PASS`]: obscured.trim(),
    [`${key}_NEXTCLOUD_CHUNK_SIZE`]: '0',
    RCLONE_CONFIG: '/dev/null',
  };
  return async (...args: string[]) => {
    try {
      return await run('rclone', [...args, '--retries', '1', '--low-level-retries', '2'], {
        env,
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      throw new Error(`rclone ${args.join(' ')} failed:\n${failed.stderr ?? ''}${failed.stdout ?? ''}`);
    }
  };
}
