import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { errorText } from '../../../lib/api-error';
import { useIssueReset } from '../api/invitations-api';
import { HandOver } from './hand-over';

/**
 * A local account's row on the admin Users screen (docs/PRODUCT.md#invitations): "Reset link" issues a link to set
 * its password and shows it to hand over (the account's password stays until the link is used).
 */
export function ResetLinkButton({ userId, name, className }: { userId: string; name: string; className: string }) {
  const reset = useIssueReset();
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    reset.reset();
  };
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={`Reset link for ${name}`}
        disabled={reset.isPending}
        onClick={() => {
          setOpen(true);
          reset.mutate(userId);
        }}
      >
        Reset link
      </button>
      <Dialog
        open={open}
        title={`Password reset link for ${name}`}
        description="Hand this link over: whoever opens it sets a new password, and every session of the account ends."
        onClose={close}
        footer={
          <button type="button" className={buttonClass('secondary')} onClick={close}>
            Done
          </button>
        }
      >
        {reset.isPending && <p className="text-sm text-slate-600">Making the link…</p>}
        {reset.error && <Alert variant="box">{errorText(reset.error)}</Alert>}
        {reset.data && <HandOver label="Password reset link" url={reset.data.url} expiresAt={reset.data.expiresAt} />}
      </Dialog>
    </>
  );
}
