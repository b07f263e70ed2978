import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * Nextcloud Login Flow v2 (docs/PRODUCT.md#nextcloud-clients): the page a Nextcloud desktop or mobile client opens
 * in the browser, where the signed-in person grants it access. The client's own calls (`/index.php/login/v2`, the
 * poll) are protocol routes outside this table.
 */
export const LoginFlowParams = z.object({ token: z.string().min(1).max(200) });

export const LoginFlowInfo = z
  .object({ clientName: z.string().describe("The client's name, from its User-Agent") })
  .meta({ id: 'LoginFlowInfo' });
export type LoginFlowInfo = z.infer<typeof LoginFlowInfo>;

export const LoginFlowGranted = z
  .object({ clientName: z.string(), granted: z.literal(true) })
  .meta({ id: 'LoginFlowGranted' });
export type LoginFlowGranted = z.infer<typeof LoginFlowGranted>;

/** What the Login Flow v2 page and API say. */
export const LOGIN_FLOW_TEXTS = {
  title: 'Connect an app',
  grantPrefix: 'Grant access to',
  explain:
    'The app gets its own app password: it can reach your files, and you can revoke it in Profile → App passwords.',
  grant: 'Grant access',
  granted: 'Access granted. You can close this window and go back to the app.',
  expired: 'This sign-in request has expired or was already used. Start again in the app.',
} as const;

/** Login Flow v2 requests expire after 20 minutes, as Nextcloud's do. */
export const LOGIN_FLOW_TTL_MS = 20 * 60 * 1000;

export const loginFlowEndpoints = {
  show: endpoint({ method: 'GET', path: '/api/login-flow/:token', params: LoginFlowParams, response: LoginFlowInfo }),
  grant: endpoint({
    method: 'POST',
    path: '/api/login-flow/:token/grant',
    params: LoginFlowParams,
    response: LoginFlowGranted,
  }),
} as const;
