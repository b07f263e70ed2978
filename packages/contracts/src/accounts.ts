import { z } from 'zod';
import { endpoint } from './endpoint';
import { MeResponse, Role } from './me';
import { MemberRole } from './workspaces';

// Invitations and local accounts (docs/PRODUCT.md#invitations).

const Email = z.string().trim().toLowerCase().email('Enter an email address.').max(320);
const Password = z.string().min(1, 'Password is required').max(1000);
const Token = z.string().min(1).max(200);

/** POST /api/workspaces/{id}/invitations */
export const WorkspaceInvitationRequest = z
  .object({ email: Email, role: MemberRole })
  .meta({ id: 'WorkspaceInvitationRequest' });
export type WorkspaceInvitationRequest = z.infer<typeof WorkspaceInvitationRequest>;

/** POST /api/admin/invitations */
export const InstanceInvitationRequest = z
  .object({ email: Email, role: Role })
  .meta({ id: 'InstanceInvitationRequest' });
export type InstanceInvitationRequest = z.infer<typeof InstanceInvitationRequest>;

/** What the inviter gets: the link to hand over (`/invite/{token}`, shown once). */
export const InvitationCreated = z
  .object({
    id: z.string(),
    url: z.string().describe('`/invite/{token}`: the page the invitee opens (the token is shown only here)'),
    expiresAt: z.string().describe('ISO-8601'),
    emailed: z.boolean().describe('True when email is configured and the link was sent to the invitee'),
  })
  .meta({ id: 'InvitationCreated' });
export type InvitationCreated = z.infer<typeof InvitationCreated>;

/** A pending invitation as its lists show it. */
export const PendingInvitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.string().describe('A workspace role (owner, editor, viewer) or an instance role (user, admin)'),
    workspaceId: z.string().nullable(),
    invitedBy: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .describe('Who invited; null for a request made on the sign-up page'),
    createdAt: z.string(),
    expiresAt: z.string(),
    expired: z.boolean(),
  })
  .meta({ id: 'PendingInvitation' });
export type PendingInvitation = z.infer<typeof PendingInvitation>;

export const PendingInvitationList = z
  .object({ items: z.array(PendingInvitation) })
  .meta({ id: 'PendingInvitationList' });
export type PendingInvitationList = z.infer<typeof PendingInvitationList>;

const InvitationIdParams = z.object({ id: z.string().min(1).max(200) });
const InviteWorkspaceParams = z.object({ id: z.string().min(1).max(200) });
const TokenParams = z.object({ token: Token });

export const InvitationRevoked = z
  .object({ id: z.string(), revoked: z.literal(true) })
  .meta({ id: 'InvitationRevoked' });

/** GET /api/public/invitations/{token}: what the invitation page shows. */
export const PublicInvitation = z
  .object({
    email: z.string(),
    workspaceName: z.string().optional(),
    role: z.string(),
    expiresAt: z.string(),
    invitedBy: z.string().describe('The inviter’s name'),
    signUp: z
      .boolean()
      .optional()
      .describe('True for a self-sign-up link (the person asked for it at `/signup`; nobody invited them)'),
  })
  .meta({ id: 'PublicInvitation' });
export type PublicInvitation = z.infer<typeof PublicInvitation>;

const Username = z
  .string()
  .trim()
  .min(2, 'Use at least 2 characters.')
  .max(64)
  .regex(/^[a-zA-Z0-9._-]+$/, 'Use letters, digits, dots, dashes and underscores.');

/** POST /api/public/invitations/{token}/accept */
export const AcceptInvitationRequest = z
  .object({ username: Username, password: Password, name: z.string().trim().max(200).optional() })
  .meta({ id: 'AcceptInvitationRequest' });
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRequest>;

/** POST /api/me/password */
export const ChangePasswordRequest = z
  .object({ currentPassword: Password, newPassword: Password })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

export const PasswordChanged = z
  .object({ ok: z.literal(true), otherSessionsEnded: z.number().int().nonnegative() })
  .meta({ id: 'PasswordChanged' });

/** POST /api/admin/users: a local account, handed over with a link to set its password. */
export const CreateLocalUserRequest = z
  .object({
    username: Username,
    email: Email.optional(),
    name: z.string().trim().max(200).optional(),
    role: Role.default('user'),
  })
  .meta({ id: 'CreateLocalUserRequest' });
export type CreateLocalUserRequest = z.infer<typeof CreateLocalUserRequest>;

/** A link to set a password (`/reset-password/{token}`, shown once). */
export const ResetLinkResponse = z.object({ url: z.string(), expiresAt: z.string() }).meta({ id: 'ResetLinkResponse' });
export type ResetLinkResponse = z.infer<typeof ResetLinkResponse>;

export const LocalUserCreated = z
  .object({ id: z.string(), ownerKey: z.string(), url: z.string(), expiresAt: z.string() })
  .meta({ id: 'LocalUserCreated' });
export type LocalUserCreated = z.infer<typeof LocalUserCreated>;

const UserKeyParams = z.object({ userId: z.string().min(1).max(200) });

/** POST /api/public/password-reset */
export const PasswordResetRequest = z.object({ email: Email }).meta({ id: 'PasswordResetRequest' });
export const PasswordResetAccepted = z.object({ ok: z.literal(true) }).meta({ id: 'PasswordResetAccepted' });

/** GET /api/public/password-reset/{token} */
export const PublicPasswordReset = z
  .object({ name: z.string(), username: z.string(), expiresAt: z.string() })
  .meta({ id: 'PublicPasswordReset' });
export type PublicPasswordReset = z.infer<typeof PublicPasswordReset>;

/** POST /api/public/password-reset/{token} */
export const SetPasswordRequest = z.object({ password: Password }).meta({ id: 'SetPasswordRequest' });

/** Who may invite, and self-sign-up (admin settings). */
export const InvitationSettings = z
  .object({
    whoMayInvite: z.enum(['admins', 'owners']).describe('owners: workspace owners invite to their workspaces too'),
    signUpDomains: z
      .array(z.string())
      .describe('Email domains whose people may sign up by themselves; empty: sign-up is closed'),
  })
  .meta({ id: 'InvitationSettings' });
export type InvitationSettings = z.infer<typeof InvitationSettings>;

export const InvitationSettingsPatch = z
  .object({
    whoMayInvite: z.enum(['admins', 'owners']).optional(),
    signUpDomains: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'Enter a domain such as example.com.'),
      )
      .max(50)
      .optional(),
  })
  .meta({ id: 'InvitationSettingsPatch' });
export type InvitationSettingsPatch = z.infer<typeof InvitationSettingsPatch>;

/** GET /api/public/signup: whether the sign-up page is open, and to which email domains. */
export const SignUpInfo = z
  .object({
    open: z.boolean().describe('Email is configured and the admin opened sign-up to at least one domain'),
    domains: z.array(z.string()),
  })
  .meta({ id: 'SignUpInfo' });
export type SignUpInfo = z.infer<typeof SignUpInfo>;

/** POST /api/public/signup */
export const SignUpRequest = z.object({ email: Email }).meta({ id: 'SignUpRequest' });

/** The invitation and local-account endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const accountsEndpoints = {
  inviteToWorkspace: endpoint({
    method: 'POST',
    path: '/api/workspaces/:id/invitations',
    params: InviteWorkspaceParams,
    body: WorkspaceInvitationRequest,
    response: InvitationCreated,
    status: 201,
  }),
  workspaceInvitations: endpoint({
    method: 'GET',
    path: '/api/workspaces/:id/invitations',
    params: InviteWorkspaceParams,
    response: PendingInvitationList,
  }),
  inviteToInstance: endpoint({
    method: 'POST',
    path: '/api/admin/invitations',
    body: InstanceInvitationRequest,
    response: InvitationCreated,
    status: 201,
  }),
  instanceInvitations: endpoint({ method: 'GET', path: '/api/admin/invitations', response: PendingInvitationList }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/api/invitations/:id',
    params: InvitationIdParams,
    response: InvitationRevoked,
  }),
  resend: endpoint({
    method: 'POST',
    path: '/api/invitations/:id/resend',
    params: InvitationIdParams,
    response: InvitationCreated,
  }),
  publicInvitation: endpoint({
    method: 'GET',
    path: '/api/public/invitations/:token',
    params: TokenParams,
    response: PublicInvitation,
  }),
  accept: endpoint({
    method: 'POST',
    path: '/api/public/invitations/:token/accept',
    params: TokenParams,
    body: AcceptInvitationRequest,
    response: MeResponse,
    status: 201,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/api/me/password',
    body: ChangePasswordRequest,
    response: PasswordChanged,
  }),
  createLocalUser: endpoint({
    method: 'POST',
    path: '/api/admin/users',
    body: CreateLocalUserRequest,
    response: LocalUserCreated,
    status: 201,
  }),
  issueReset: endpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/password-reset',
    params: UserKeyParams,
    response: ResetLinkResponse,
  }),
  requestReset: endpoint({
    method: 'POST',
    path: '/api/public/password-reset',
    body: PasswordResetRequest,
    response: PasswordResetAccepted,
    status: 202,
  }),
  resetInfo: endpoint({
    method: 'GET',
    path: '/api/public/password-reset/:token',
    params: TokenParams,
    response: PublicPasswordReset,
  }),
  reset: endpoint({
    method: 'POST',
    path: '/api/public/password-reset/:token',
    params: TokenParams,
    body: SetPasswordRequest,
    response: PasswordResetAccepted,
  }),
  signUpInfo: endpoint({ method: 'GET', path: '/api/public/signup', response: SignUpInfo }),
  /** A link to create the account, by email (the address is verified before any account exists). */
  signUp: endpoint({
    method: 'POST',
    path: '/api/public/signup',
    body: SignUpRequest,
    response: PasswordResetAccepted,
    status: 202,
  }),
  settings: endpoint({ method: 'GET', path: '/api/admin/invitation-settings', response: InvitationSettings }),
  updateSettings: endpoint({
    method: 'PATCH',
    path: '/api/admin/invitation-settings',
    body: InvitationSettingsPatch,
    response: InvitationSettings,
  }),
} as const;
