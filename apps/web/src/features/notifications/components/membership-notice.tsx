import { ENDPOINTS, type Notification } from '@atrium/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/api-error';
import { useMe } from '../../../lib/me';
import { queryKeys } from '../../../lib/query-keys';

type Answer = 'accept' | 'decline' | 'leave';
const DONE: Record<Answer, string> = {
  accept: 'You joined this workspace.',
  decline: 'You declined this invitation.',
  leave: 'You left this workspace.',
};

/**
 * The actions of a membership notice (docs/PRODUCT.md#workspace-members): someone added you to a workspace (open it,
 * or leave in one click), or invited you (accept or decline).
 */
export function MembershipActions({ notification }: { notification: Notification }) {
  const me = useMe();
  const client = useQueryClient();
  const [done, setDone] = useState<Answer | null>(null);
  const workspace = notification.workspace;
  const invited = notification.membership?.state === 'invited';
  const answer = useMutation({
    mutationFn: async (kind: Answer) => {
      if (!workspace) return;
      const params = { id: workspace.id };
      if (kind === 'accept') await call(ENDPOINTS.spaces.acceptInvitation, { params });
      else if (kind === 'decline') await call(ENDPOINTS.spaces.declineInvitation, { params });
      else await call(ENDPOINTS.spaces.removeMember, { params: { ...params, userId: me.data?.ownerKey ?? '' } });
    },
    onSuccess: async (_result, kind) => {
      setDone(kind);
      await client.invalidateQueries({ queryKey: queryKeys.spaces() });
    },
  });
  if (!workspace) return null;
  const open = (
    <Link to={`/dashboard/spaces/${workspace.id}/folders`} className={buttonClass('secondary')}>
      Open workspace
    </Link>
  );
  if (done) {
    return (
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <p role="status" className="text-emerald-700">
          {DONE[done]}
        </p>
        {done === 'accept' && open}
      </div>
    );
  }
  return (
    <div className="mt-2">
      <div className="flex flex-wrap items-center gap-2">
        {invited ? (
          <>
            <button
              type="button"
              disabled={answer.isPending}
              onClick={() => answer.mutate('accept')}
              aria-label={`Accept the invitation to ${workspace.name}`}
              className={buttonClass()}
            >
              Accept
            </button>
            <button
              type="button"
              disabled={answer.isPending}
              onClick={() => answer.mutate('decline')}
              aria-label={`Decline the invitation to ${workspace.name}`}
              className={buttonClass('secondary')}
            >
              Decline
            </button>
          </>
        ) : (
          <>
            {open}
            <button
              type="button"
              disabled={answer.isPending || !me.data}
              onClick={() => answer.mutate('leave')}
              aria-label={`Leave ${workspace.name}`}
              className="rounded-lg px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-60"
            >
              Leave
            </button>
          </>
        )}
      </div>
      {answer.isError && <Alert className="mt-2">{errorText(answer.error)}</Alert>}
    </div>
  );
}
