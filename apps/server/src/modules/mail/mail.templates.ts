import type { EmailKind } from '@atrium/contracts';

/** One email's content: subject, plain text and HTML (every outside value escaped). */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A subject line: one line, at most 150 characters (an outside name cannot add headers or run long). */
const subjectLine = (value: string) => {
  const line = value.replace(/[\r\n\t]+/g, ' ').trim();
  return line.length > 150 ? `${line.slice(0, 149)}…` : line;
};

const WHY: Record<EmailKind, string> = {
  share: 'You get this email because you turned on emails when something is shared with you.',
  member: 'You get this email because you turned on emails when you are added to a workspace.',
  digest: 'You get this email because you turned on the daily digest of unread notifications.',
};

/**
 * The one layout of every email (docs/PRODUCT.md#email): "Atrium", a few lines, one button-like link, and for
 * notices and digests why it came and the unsubscribe link.
 */
function compose(options: {
  subject: string;
  lines: string[];
  link: { url: string; label: string };
  after?: string[];
  unsubscribe?: { kind: EmailKind; url: string };
}): MailContent {
  const { lines, link, after = [], unsubscribe } = options;
  const text = [
    'Atrium',
    '',
    ...lines,
    '',
    `${link.label}: ${link.url}`,
    ...(after.length ? ['', ...after] : []),
    ...(unsubscribe ? ['', '--', WHY[unsubscribe.kind], `Unsubscribe: ${unsubscribe.url}`] : []),
    '',
  ].join('\n');
  const paragraph = (line: string) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:0 auto;padding:16px">',
    '<p style="font-weight:700;font-size:18px;margin:0 0 16px">Atrium</p>',
    ...lines.map(paragraph),
    `<p style="margin:16px 0"><a href="${escapeHtml(link.url)}" style="background:#2563eb;color:#fff;padding:8px 14px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>`,
    ...after.map(paragraph),
    ...(unsubscribe
      ? [
          `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px"><p style="font-size:12px;color:#6b7280">${escapeHtml(WHY[unsubscribe.kind])} <a href="${escapeHtml(unsubscribe.url)}">Unsubscribe</a></p>`,
        ]
      : []),
    '</body></html>',
  ].join('\n');
  return { subject: subjectLine(options.subject), text, html };
}

export const invitationEmail = (invite: {
  url: string;
  inviterName: string;
  workspaceName: string | null;
  expiresAt: string;
}): MailContent =>
  compose({
    subject: invite.workspaceName
      ? `${invite.inviterName} invited you to ${invite.workspaceName} on Atrium`
      : `${invite.inviterName} invited you to Atrium`,
    lines: [
      invite.workspaceName
        ? `${invite.inviterName} invited you to the workspace “${invite.workspaceName}”.`
        : `${invite.inviterName} invited you to join Atrium.`,
      `The invitation is valid until ${invite.expiresAt.slice(0, 10)}.`,
    ],
    link: { url: invite.url, label: 'Accept the invitation' },
    after: ['If you did not expect this invitation, you can ignore this email.'],
  });

export const signUpEmail = (signUp: { url: string; expiresAt: string | null }): MailContent =>
  signUp.expiresAt === null
    ? compose({
        subject: 'Your Atrium account',
        lines: [
          'Someone (we hope you) asked to create an Atrium account with this email address, but it has one already.',
          'Sign in with it; if you forgot the password, "Forgot password?" on the sign-in page sends a link to set a new one.',
        ],
        link: { url: signUp.url, label: 'Sign in' },
        after: ['If you did not ask for this, ignore this email: nothing changed.'],
      })
    : compose({
        subject: 'Create your Atrium account',
        lines: [
          'Someone (we hope you) asked to create an Atrium account with this email address.',
          `Open the link to choose your username and password. It is valid until ${signUp.expiresAt.replace('T', ' ').slice(0, 16)} UTC.`,
        ],
        link: { url: signUp.url, label: 'Create your account' },
        after: ['If you did not ask for this, ignore this email: no account is created.'],
      });

export const passwordResetEmail = (reset: { url: string; name: string; expiresAt: string }): MailContent =>
  compose({
    subject: 'Reset your Atrium password',
    lines: [
      `Hello ${reset.name},`,
      `Someone asked to reset the password of your Atrium account. The link is valid until ${reset.expiresAt.replace('T', ' ').slice(0, 16)} UTC.`,
    ],
    link: { url: reset.url, label: 'Choose a new password' },
    after: ['If you did not ask for this, ignore this email: your password stays as it is.'],
  });

export const shareNoticeEmail = (notice: { message: string; url: string; unsubscribeUrl: string }): MailContent =>
  compose({
    subject: `Shared with you: ${notice.message}`,
    lines: [notice.message],
    link: { url: notice.url, label: 'Open in Atrium' },
    unsubscribe: { kind: 'share', url: notice.unsubscribeUrl },
  });

export const memberNoticeEmail = (notice: {
  workspaceName: string;
  byName: string;
  role: string;
  invited: boolean;
  url: string;
  unsubscribeUrl: string;
}): MailContent =>
  compose({
    subject: notice.invited
      ? `${notice.byName} invited you to ${notice.workspaceName}`
      : `${notice.byName} added you to ${notice.workspaceName}`,
    lines: [
      notice.invited
        ? `${notice.byName} invited you to the workspace “${notice.workspaceName}” as ${notice.role}. Accept or decline it in Atrium.`
        : `${notice.byName} added you to the workspace “${notice.workspaceName}” as ${notice.role}.`,
    ],
    link: { url: notice.url, label: 'Open in Atrium' },
    unsubscribe: { kind: 'member', url: notice.unsubscribeUrl },
  });

export const digestEmail = (digest: {
  messages: string[];
  more: number;
  url: string;
  unsubscribeUrl: string;
}): MailContent => {
  const count = digest.messages.length + digest.more;
  return compose({
    subject: `Atrium: ${count} unread notification${count === 1 ? '' : 's'}`,
    lines: [
      `You have ${count} unread notification${count === 1 ? '' : 's'}:`,
      ...digest.messages.map((message) => `• ${message}`),
      ...(digest.more > 0 ? [`… and ${digest.more} more.`] : []),
    ],
    link: { url: digest.url, label: 'Open Atrium' },
    unsubscribe: { kind: 'digest', url: digest.unsubscribeUrl },
  });
};
