import { AdminAccounts, ResetLinkButton } from '../../features/accounts';
import AdminUsersPage, { ROW_ACTION_CLASS } from '../../features/admin/routes/users';

/**
 * The admin Users screen, with invitations, local accounts and their settings below (features/accounts); a local
 * account's row has "Reset link" (docs/PRODUCT.md#invitations).
 */
export default function AdminUsersRoute() {
  return (
    <>
      <AdminUsersPage
        rowActions={(user) =>
          user.localAccount ? (
            <ResetLinkButton userId={user.userId} name={user.name ?? user.userId} className={ROW_ACTION_CLASS} />
          ) : null
        }
      />
      <AdminAccounts />
    </>
  );
}
