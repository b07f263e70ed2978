// `npm start`: install what is missing, build if needed, then run the server
// (it migrates the database on start) on http://localhost:3000.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureBuild, ensureDependencies, loadDotEnv, root } from './lib.mjs';
import { ensureSupportedNode } from './runtime.mjs';

// Node 22 or 24; on an older machine node this runs again under the one from npm (scripts/runtime.mjs).
await ensureSupportedNode();

/**
 * Debian packages the local AI engines use (speech-to-text, text-to-speech with festival's HTS voice or flite, audio conversion) and background analysis
 * (OCR: tesseract-ocr + tesseract-ocr-eng; PDF text: poppler-utils' pdftotext). Without one, that analysis records
 * `unsupported` naming the package; nothing crashes.
 */
const AI_PACKAGES = [
  'festival',
  'festvox-us-slt-hts',
  'flite',
  'lame',
  'sox',
  'ffmpeg',
  'pocketsphinx',
  'pocketsphinx-en-us',
  'tesseract-ocr',
  'tesseract-ocr-eng',
  'poppler-utils',
];

/**
 * Installs the missing AI packages when running as root on a Debian-like
 * system. Anything else (not root, no apt, offline) only warns: the server
 * starts anyway and the affected services answer 503 naming the package.
 */
function ensureAiPackages() {
  if (process.env.ATRIUM_SKIP_APT === '1' || process.platform !== 'linux') return;
  /** @param {string} pkg */
  const installed = (pkg) =>
    spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed');
  if (spawnSync('dpkg-query', ['--version'], { stdio: 'ignore' }).status !== 0) return;
  const missing = AI_PACKAGES.filter((pkg) => !installed(pkg));
  if (missing.length === 0) return;
  const canApt = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!canApt) {
    console.warn(`! Missing Debian packages for the local AI services: ${missing.join(' ')}`);
    console.warn(
      `  Install them with: sudo apt-get install ${missing.join(' ')} (those services answer 503 until then)`,
    );
    return;
  }
  console.log(`Installing Debian packages for the local AI services: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env,
  });
  if (result.status !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env,
    });
  }
  if (result.status !== 0) console.warn('! Could not install them; starting anyway (those AI services answer 503).');
}

loadDotEnv();
ensureAiPackages();
ensureDependencies();
ensureBuild();

// libuv's thread pool is sized when the process starts, so here and not in the server: password checks (scrypt) take
// at most 2 of its threads (apps/server/src/lib/passwords.ts), file I/O keeps the others (docs/DEPLOY.md).
const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { UV_THREADPOOL_SIZE: '16', ...process.env },
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
