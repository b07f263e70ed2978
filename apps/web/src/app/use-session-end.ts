import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { clearBrowserFlags } from '../lib/me';
import { queryKeys } from '../lib/query-keys';
import { onSessionEnded } from '../lib/session-end';
import type { SessionEndReason } from '@atrium/contracts/texts';

/**
 * The signed-in area's answer to an ended session (docs/PRODUCT.md#session-end-reasons): the first 401 of any API
 * call (or of the session check after the notification stream failed) forgets who was signed in and everything read
 * as them, and answers the reason, so the layout takes the person to /login with it: never a half-signed-in page.
 */
export function useSessionEnd(): SessionEndReason | null {
  const queryClient = useQueryClient();
  const [ended, setEnded] = useState<SessionEndReason | null>(null);
  useEffect(
    () =>
      onSessionEnded((reason) => {
        clearBrowserFlags();
        setEnded((current) => current ?? reason);
        void queryClient.cancelQueries();
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.me()[0] });
        queryClient.setQueryData(queryKeys.me(), null);
      }),
    [queryClient],
  );
  return ended;
}
