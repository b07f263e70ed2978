import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The OCS envelope Nextcloud clients parse (docs/PRODUCT.md#nextcloud-clients): `{ ocs: { meta, data } }`, as JSON
 * with `?format=json` or an `Accept: application/json` header, else as XML, as Nextcloud answers. v1 says
 * `statuscode` 100 on success, v2 the HTTP status.
 */
export type OcsVersion = 1 | 2;

const wantsJson = (request: FastifyRequest) => {
  const format = (request.query as { format?: unknown } | undefined)?.format;
  if (format === 'json') return true;
  if (format === 'xml') return false;
  return /application\/json/i.test(request.headers.accept ?? '');
};

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/** Nextcloud's XML rendering of a value: objects as elements, arrays as repeated `<element>`, true as 1. */
export function toXml(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value === true) return '1';
  if (Array.isArray(value)) return value.map((item) => `<element>${toXml(item)}</element>`).join('');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => {
        const tag = /^[A-Za-z_][\w.-]*$/.test(key) ? key : 'element';
        return `<${tag}>${toXml(item)}</${tag}>`;
      })
      .join('');
  }
  return escapeXml(String(value as string | number));
}

/** Sends `data` in the OCS envelope; `status` is the HTTP status (v1 reports success as statuscode 100). */
export function sendOcs(
  request: FastifyRequest,
  reply: FastifyReply,
  version: OcsVersion,
  data: unknown,
  { status = 200, message = 'OK' }: { status?: number; message?: string } = {},
) {
  const ok = status < 400;
  const meta = {
    status: ok ? 'ok' : 'failure',
    statuscode: ok && version === 1 ? 100 : status === 401 ? 997 : status,
    message,
    totalitems: '',
    itemsperpage: '',
  };
  reply.status(status).header('cache-control', 'no-store');
  if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send({ ocs: { meta, data } });
  return reply
    .type('text/xml; charset=UTF-8')
    .send(`<?xml version="1.0"?>\n<ocs><meta>${toXml(meta)}</meta><data>${toXml(data)}</data></ocs>\n`);
}
