// The invitation and password reset pages' HTTP calls: zod-free (lib/http.ts, the paths from
// `@atrium/contracts/public-endpoints`), so these public pages load no schema code.
import type { MeResponse, PublicInvitation, PublicPasswordReset, SignUpInfo } from '@atrium/contracts';
import { endpointPath } from '@atrium/contracts/endpoint';
import { PUBLIC_ENDPOINTS } from '@atrium/contracts/public-endpoints';
import { sendOk } from '../../../lib/http';

const E = PUBLIC_ENDPOINTS.accounts;
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** What an invitation is for; rejects with the ApiError of a 404 or 410 (used, revoked, expired, workspace gone). */
export async function getInvitation(token: string): Promise<PublicInvitation> {
  const response = await sendOk(endpointPath(E.publicInvitation, { token }), {
    headers: { accept: 'application/json' },
  });
  return (await response.json()) as PublicInvitation;
}

/** Creates the local account and signs it in (the session cookie comes with the answer). */
export async function acceptInvitation(
  token: string,
  body: { username: string; password: string; name?: string },
): Promise<MeResponse> {
  const response = await sendOk(endpointPath(E.accept, { token }), {
    method: E.accept.method,
    headers: JSON_HEADERS,
    body: JSON.stringify(body),
  });
  return (await response.json()) as MeResponse;
}

export async function getPasswordReset(token: string): Promise<PublicPasswordReset> {
  const response = await sendOk(endpointPath(E.resetInfo, { token }), { headers: { accept: 'application/json' } });
  return (await response.json()) as PublicPasswordReset;
}

export async function setPasswordWithLink(token: string, password: string): Promise<void> {
  await sendOk(endpointPath(E.reset, { token }), {
    method: E.reset.method,
    headers: JSON_HEADERS,
    body: JSON.stringify({ password }),
  });
}

/** Whether self-sign-up is open, and to which email domains (docs/PRODUCT.md#self-sign-up). */
export async function getSignUpInfo(): Promise<SignUpInfo> {
  const response = await sendOk(E.signUpInfo.path, { headers: { accept: 'application/json' } });
  return (await response.json()) as SignUpInfo;
}

/** Asks for the link that creates the account; rejects with the ApiError of a refused address (403) or 429. */
export async function requestSignUp(email: string): Promise<void> {
  await sendOk(E.signUp.path, { method: E.signUp.method, headers: JSON_HEADERS, body: JSON.stringify({ email }) });
}
