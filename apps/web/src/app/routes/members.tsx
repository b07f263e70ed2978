import { InviteByEmail } from '../../features/accounts';
import { MembersPage } from '../../features/spaces';

/** A workspace's members screen, with "Invite by email" for owners (features/accounts). */
export default function MembersRoute() {
  return <MembersPage invite={(workspaceId) => <InviteByEmail workspaceId={workspaceId} />} />;
}
