import { describe, expect, it } from 'vitest';
import {
  checkPushEndpoint,
  ENDPOINT_MESSAGES,
  isLoopbackAddress,
  isPublicAddress,
  type EndpointPolicy,
  type ResolvedAddress,
} from './push-endpoint';

const resolvingTo =
  (...addresses: string[]): EndpointPolicy['resolve'] =>
  async () =>
    addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
const strict = (...addresses: string[]): EndpointPolicy => ({
  allowLoopback: false,
  resolve: resolvingTo(...addresses),
});

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.251',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '::127.0.0.1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '2001::1',
    '2002:7f00:1::1',
    '100::1',
    'not an address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '142.250.74.202',
    '100.63.255.255',
    '172.32.0.1',
    '2a00:1450:4001:82b::200a',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('knows loopback in every spelling, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ['10.0.0.1', '::', '::2', '8.8.8.8', 'fe80::1']) {
      expect(isLoopbackAddress(address), address).toBe(false);
    }
  });
});

describe('checkPushEndpoint', () => {
  it.each([
    'https://127.0.0.1/push',
    'https://10.0.0.1/push',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]:8443/push',
    'https://[::ffff:127.0.0.1]/push',
    'https://2130706433/push', // decimal 127.0.0.1
    'https://0x7f.0.0.1/push', // hex
    'https://0177.0.0.1/push', // octal
    'https://0x7f000001/push',
    'https://8.8.8.8/push', // even public addresses: push services have names
  ])('refuses the IP literal %s', async (endpoint) => {
    expect(await checkPushEndpoint(endpoint, strict('8.8.8.8'))).toEqual({
      ok: false,
      permanent: true,
      message: ENDPOINT_MESSAGES.ipLiteral,
    });
  });

  it('refuses http, credentials, and names resolving to any non-public address', async () => {
    const refused = async (endpoint: string, policy: EndpointPolicy) => {
      const checked = await checkPushEndpoint(endpoint, policy);
      return checked.ok ? 'accepted' : checked.message;
    };
    expect(await refused('http://push.example.com/x', strict('8.8.8.8'))).toBe(ENDPOINT_MESSAGES.https);
    expect(await refused('ftp://push.example.com/x', strict('8.8.8.8'))).toBe(ENDPOINT_MESSAGES.https);
    expect(await refused('https://u:p@push.example.com/x', strict('8.8.8.8'))).toBe(ENDPOINT_MESSAGES.credentials);
    expect(await refused('https://push.example.com/x', strict('10.0.0.7'))).toBe(ENDPOINT_MESSAGES.notPublic);
    // One private address among public ones is enough to refuse.
    expect(await refused('https://push.example.com/x', strict('8.8.8.8', 'fd00::1'))).toBe(ENDPOINT_MESSAGES.notPublic);
    expect(await refused('https://push.example.com/x', strict())).toBe(ENDPOINT_MESSAGES.unresolved);
    const failing: EndpointPolicy = {
      allowLoopback: false,
      resolve: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
    };
    expect(await checkPushEndpoint('https://nowhere.example/x', failing)).toMatchObject({
      ok: false,
      permanent: false,
    });
    expect(await checkPushEndpoint('https://push.example.com/x', strict('8.8.8.8', '2a00:1450::1'))).toMatchObject({
      ok: true,
      addresses: [{ address: '8.8.8.8' }, { address: '2a00:1450::1' }],
    });
  });

  it('allows loopback (http or https) only with allowLoopback, and nothing else private', async () => {
    const local: EndpointPolicy = { allowLoopback: true, resolve: resolvingTo('127.0.0.1') };
    expect(await checkPushEndpoint('http://127.0.0.1:4000/push', local)).toMatchObject({ ok: true });
    expect(await checkPushEndpoint('https://[::1]/push', local)).toMatchObject({ ok: true });
    expect(await checkPushEndpoint('http://localhost:4000/push', local)).toMatchObject({ ok: true });
    expect(await checkPushEndpoint('https://localhost/push', strict('127.0.0.1'))).toMatchObject({
      ok: false,
      message: ENDPOINT_MESSAGES.notPublic,
    });
    expect(await checkPushEndpoint('http://10.0.0.1/push', local)).toMatchObject({ ok: false });
    expect(
      await checkPushEndpoint('http://push.example.com/x', { allowLoopback: true, resolve: resolvingTo('8.8.8.8') }),
    ).toMatchObject({ ok: false, message: ENDPOINT_MESSAGES.https });
  });
});
