import type { ContactCreated, ContactRequest } from '@atrium/contracts';
import { sendOk } from '../../../lib/http';

/**
 * POST /api/contact. Plain fetch (no zod) so the public pages stay light;
 * failures carry the server's code, message and field details.
 */
export async function sendContactMessage(message: ContactRequest): Promise<ContactCreated> {
  const response = await sendOk('/api/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(message),
  });
  return (await response.json()) as ContactCreated;
}
