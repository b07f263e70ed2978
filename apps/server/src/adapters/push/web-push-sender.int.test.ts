import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedAddress, Resolver } from './push-endpoint';
import { createWebPushSender, type PushTarget } from './web-push-sender';

/**
 * The sender against real sockets on loopback. Public host names cannot be
 * resolved offline, so DNS is the one thing replaced: a resolver that answers
 * what each test needs and counts how often it was asked.
 */
const keys = webpush.generateVAPIDKeys();
const target = (endpoint: string): PushTarget => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, keys: { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') } };
};
const fakeDns = (...answers: string[][]) => {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    const answer = answers[Math.min(asked.length, answers.length) - 1] ?? [];
    return answer.map((address): ResolvedAddress => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };
  return { asked, resolve };
};
const listen = async (server: net.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const sender = (allowLoopback: boolean, resolve: Resolver) =>
  createWebPushSender({ keys, subject: 'mailto:admin@example.test', allowLoopback, resolve });

describe('Web Push sender: where it connects', () => {
  let seen: { host: string | undefined; path: string | undefined }[];
  let plain: http.Server;
  let plainPort: number;
  let connections: number;
  let silent: net.Server;
  let silentPort: number;
  beforeAll(async () => {
    seen = [];
    plain = http.createServer((req, res) => {
      seen.push({ host: req.headers.host, path: req.url });
      req.resume();
      req.on('end', () => res.writeHead(201).end());
    });
    plainPort = await listen(plain);
    connections = 0;
    silent = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    silentPort = await listen(silent);
  });
  afterAll(async () => {
    await new Promise((r) => plain.close(r));
    await new Promise((r) => silent.close(r));
  });

  it('connects to the address it checked, resolving once, with the host name kept in Host', async () => {
    const dns = fakeDns(['127.0.0.1']);
    const push = sender(true, dns.resolve);
    const outcome = await push.send(target(`http://push.example.test:${plainPort}/sub/1`), '{}');
    expect(outcome).toEqual({ status: 'sent' });
    expect(dns.asked).toEqual(['push.example.test']);
    expect(seen).toEqual([{ host: `push.example.test:${plainPort}`, path: '/sub/1' }]);
  });

  it('refuses to send when the host has moved to a private address since it was accepted (DNS rebinding)', async () => {
    const dns = fakeDns(['93.184.216.34'], ['127.0.0.1']);
    const push = sender(false, dns.resolve);
    const endpoint = `https://push.example.com:${silentPort}/sub/2`;
    expect(await push.refusal(endpoint)).toBeNull();
    expect(await push.send(target(endpoint), '{}')).toEqual({ status: 'gone' });
    expect(dns.asked).toEqual(['push.example.com', 'push.example.com']);
    expect(connections).toBe(0);
  });

  it('refuses IP literals and private names at send time too (rows stored before the check)', async () => {
    const push = sender(false, fakeDns(['10.0.0.5']).resolve);
    for (const endpoint of [`https://127.0.0.1:${silentPort}/x`, `https://intranet.example:${silentPort}/x`]) {
      expect(await push.send(target(endpoint), '{}')).toEqual({ status: 'gone' });
    }
    expect(connections).toBe(0);
  });

  it('takes the answer from the status line and does not wait for a body that never ends', async () => {
    const endless = http.createServer((req, res) => {
      req.resume();
      res.writeHead(201);
      res.write('still talking');
    });
    const port = await listen(endless);
    try {
      const started = Date.now();
      const outcome = await sender(true, fakeDns(['127.0.0.1']).resolve).send(
        target(`http://push.example.test:${port}/endless`),
        '{}',
      );
      expect(outcome).toEqual({ status: 'sent' });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      endless.closeAllConnections();
      await new Promise((r) => endless.close(r));
    }
  });

  it('counts an unresolvable host as a failed send, not a gone subscription', async () => {
    const push = sender(false, fakeDns([]).resolve);
    expect(await push.send(target('https://gone-from-dns.example/x'), '{}')).toMatchObject({ status: 'failed' });
  });
});

describe('Web Push sender over TLS', () => {
  let dir: string;
  let server: https.Server;
  let port: number;
  const serverNames: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'atrium-push-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=push.example.test',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const key = readFileSync(path.join(dir, 'key.pem'));
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    server = https.createServer(
      {
        key,
        cert,
        SNICallback: (name, callback) => {
          serverNames.push(name);
          callback(null);
        },
      },
      (_req, res) => res.writeHead(201).end(),
    );
    port = await listen(server);
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the host name as TLS server name to the pinned address and verifies the certificate', async () => {
    const dns = fakeDns(['127.0.0.1']);
    const outcome = await sender(true, dns.resolve).send(target(`https://push.example.test:${port}/sub`), '{}');
    // The connection reached the checked address and offered the host name (SNI)…
    expect(serverNames).toEqual(['push.example.test']);
    // …and a certificate no trusted authority signed is refused: TLS checks stay on.
    expect(outcome).toMatchObject({ status: 'failed', reason: expect.stringMatching(/self[- ]signed/i) });
  });
});
