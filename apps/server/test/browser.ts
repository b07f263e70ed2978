import type { TestServer } from './helpers';

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A minimal browser for integration tests: a path-aware cookie jar and
 * step-by-step redirect following over real HTTP, sending the Origin and
 * Sec-Fetch-Site headers a same-origin page would.
 */
export function createBrowser(server: TestServer) {
  const jar = new Map<string, StoredCookie>();

  const store = (response: Response, requestPath: string) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1) ?? undefined;
      const path = attr('path') ?? requestPath.replace(/\/[^/]*$/, '') ?? '/';
      const expired =
        value === '' || attr('max-age') === '0' || (attr('expires') && Date.parse(attr('expires') ?? '') < Date.now());
      const key = `${name}|${path}`;
      if (expired) jar.delete(key);
      else jar.set(key, { value, path });
    }
  };

  const cookieHeader = (path: string) =>
    [...jar]
      .filter(
        ([, cookie]) =>
          path === cookie.path ||
          path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`) ||
          path.startsWith(`${cookie.path}?`),
      )
      .map(([key, cookie]) => `${key.split('|')[0]}=${cookie.value}`)
      .join('; ');

  const toPath = (url: string) => {
    const parsed = new URL(url, server.url);
    if (parsed.origin !== new URL(server.url).origin) throw new Error(`left the site: ${url}`);
    return `${parsed.pathname}${parsed.search}`;
  };

  async function request(url: string, init: RequestInit = {}) {
    const path = toPath(url);
    const headers = new Headers(init.headers);
    const cookies = cookieHeader(new URL(path, server.url).pathname);
    if (cookies) headers.set('cookie', cookies);
    if (init.method && init.method !== 'GET') {
      headers.set('origin', new URL(server.url).origin);
      headers.set('sec-fetch-site', 'same-origin');
    }
    const response = await server.fetch(path, { ...init, headers, redirect: 'manual' });
    store(response, new URL(path, server.url).pathname);
    return response;
  }

  return {
    request,
    /** Follows redirects until a non-redirect answer or a page outside `/oidc` and `/api/auth`; returns the last answer and URL. */
    async follow(url: string, init: RequestInit = {}, stopAt = (path: string) => !/^\/(oidc|api\/auth)\//.test(path)) {
      let response = await request(url, init);
      let current = toPath(url);
      for (let hops = 0; hops < 15 && response.status >= 300 && response.status < 400; hops += 1) {
        const location = response.headers.get('location');
        if (!location) break;
        current = toPath(location);
        if (stopAt(new URL(current, server.url).pathname)) return { response, url: current };
        response = await request(current);
      }
      return { response, url: current };
    },
    cookie: (name: string) => [...jar].find(([key]) => key.startsWith(`${name}|`))?.[1].value,
    sessionCookie() {
      const value = this.cookie('atrium_session');
      return value ? `atrium_session=${value}` : '';
    },
    clear: () => jar.clear(),
  };
}

export type TestBrowser = ReturnType<typeof createBrowser>;

/** The action of the first form on an HTML page. */
export const formAction = (html: string) => /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
