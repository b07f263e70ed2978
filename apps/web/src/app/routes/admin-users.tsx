import { AdminAccounts } from '../../features/accounts';
import AdminUsersPage from '../../features/admin/routes/users';

/** The admin Users screen, with invitations, local accounts and their settings below (features/accounts). */
export default function AdminUsersRoute() {
  return (
    <>
      <AdminUsersPage />
      <AdminAccounts />
    </>
  );
}
