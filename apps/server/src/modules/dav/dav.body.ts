import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';

/** Largest XML body read (PROPFIND, PROPPATCH, LOCK). */
const MAX_XML_BYTES = 256 * 1024;

/** Reads a small request body (bounded: 413 beyond `MAX_XML_BYTES`). */
export async function readSmallBody(request: FastifyRequest): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_XML_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_XML_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
