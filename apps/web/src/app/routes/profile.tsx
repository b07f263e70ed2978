import { Profile } from '../../features/dashboard/routes/profile';
import { SignInSecurity } from '../../features/factors';
import { useFirstLoginSubscription } from '../../features/notifications';

/** The profile page plus the first-login push subscription and its greeting banner, and Sign-in security. */
export default function ProfileRoute() {
  const { greeting } = useFirstLoginSubscription();
  return (
    <>
      <Profile greeting={greeting} />
      <SignInSecurity />
    </>
  );
}
