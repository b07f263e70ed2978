import AdminSystemPage from '../../features/admin/routes/system';
import { SecondFactorPolicy } from '../../features/factors';

/** The admin's system page plus the second-factor policy (docs/PRODUCT.md#second-factors). */
export default function AdminSystemRoute() {
  return (
    <>
      <AdminSystemPage />
      <SecondFactorPolicy />
    </>
  );
}
