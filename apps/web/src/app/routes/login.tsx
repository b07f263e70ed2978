import { subscribeAtLogin } from '../../features/notifications';
import LoginPage from '../../features/auth/routes/login';

/** The login page; after the admin signs in it tries to subscribe to notifications (docs/PRODUCT.md#admin-sign-in). */
export default function LoginRoute() {
  return <LoginPage onSignedIn={(me) => subscribeAtLogin(me.ownerKey)} />;
}
