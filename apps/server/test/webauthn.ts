import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

/**
 * A software passkey (an ES256 discoverable credential, "none" attestation) that answers WebAuthn ceremonies as a
 * browser would pass them on: built from the spec's byte layouts with node:crypto, independent of the server's
 * verification code.
 */
export function softPasskey(origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(16);
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x ?? '', 'base64url')],
    [-3, Buffer.from(jwk.y ?? '', 'base64url')],
  ]);
  let counter = 0;
  let userHandle = '';

  function authenticatorData(rpId: string, flags: number, attested: boolean) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      parts.push(Buffer.alloc(16), length, credentialId, Buffer.from(isoCBOR.encode(cose)));
    }
    return Buffer.concat(parts);
  }

  return {
    id: b64url(credentialId),
    /** Answers `POST /api/me/passkeys/options` (creation options) as `startRegistration()` would. */
    register(options: Record<string, unknown>) {
      const rp = options.rp as { id: string };
      userHandle = (options.user as { id: string }).id;
      const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin });
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authenticatorData(rp.id, 0x45, true)],
        ]) as never,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(Buffer.from(clientDataJSON)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    /** Answers `POST /api/auth/passkey/options` (request options) as `startAuthentication()` would. */
    authenticate(options: Record<string, unknown>, { tamper = false } = {}) {
      counter += 1;
      const clientDataJSON = Buffer.from(
        JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin }),
      );
      const authData = authenticatorData(String(options.rpId), 0x05, false);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      if (tamper) signature.writeUInt8((signature.at(-1) ?? 0) ^ 0xff, signature.length - 1);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle,
        },
        clientExtensionResults: {},
      };
    },
  };
}
