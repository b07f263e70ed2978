// The accounts feature's public face (docs/PRODUCT.md#invitations): the members screen's "Invite by email" and the
// profile's password section; its public pages (/invite/:token, /reset-password/:token) are routes of the router.
export { InviteByEmail } from './components/invite-by-email';
export { PasswordSection } from './components/password-section';
export { AdminAccounts } from './components/admin-accounts';
export { ResetLinkButton } from './components/reset-link-button';
