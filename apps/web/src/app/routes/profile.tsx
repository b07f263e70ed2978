import { AppPasswordsSection } from '../../features/app-passwords';
import { Profile } from '../../features/dashboard/routes/profile';
import { useFirstLoginSubscription } from '../../features/notifications';

/** The profile page plus the first-login push subscription and its greeting banner. */
export default function ProfileRoute() {
  const { greeting } = useFirstLoginSubscription();
  return (
    <>
      <Profile greeting={greeting} />
      <AppPasswordsSection />
    </>
  );
}
