import { PasswordSection } from '../../features/accounts';
import { AppPasswordsSection } from '../../features/app-passwords';
import { Profile } from '../../features/dashboard/routes/profile';
import { SignInSecurity } from '../../features/factors';
import { useFirstLoginSubscription } from '../../features/notifications';
import { useMe } from '../../lib/me';

/**
 * The profile page plus the first-login push subscription and its greeting banner; a local account's password;
 * Sign-in security; App passwords.
 */
export default function ProfileRoute() {
  const { greeting } = useFirstLoginSubscription();
  const me = useMe();
  return (
    <>
      <Profile greeting={greeting} />
      {me.data?.localAccount && (
        <div className="mx-auto max-w-3xl px-4 pb-8 sm:px-6">
          <PasswordSection />
        </div>
      )}
      <SignInSecurity />
      <AppPasswordsSection />
    </>
  );
}
