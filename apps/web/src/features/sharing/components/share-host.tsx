import { useState, type ReactNode } from 'react';
import { ShareActionContext, type ShareRequest } from '../../../lib/share-action';
import { ShareDialog } from './share-dialog';

/** Provides `useShareAction()` to everything inside and shows the share dialog it asks for. */
export function ShareHost({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<ShareRequest | null>(null);
  return (
    <ShareActionContext.Provider value={setTarget}>
      {children}
      {target && <ShareDialog key={`${target.kind}:${target.id}`} target={target} onClose={() => setTarget(null)} />}
    </ShareActionContext.Provider>
  );
}
