import { ENDPOINTS } from '@atrium/contracts';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/api-error';

/**
 * "Forgot password?" under the sign-in form, shown only when email is configured (docs/PRODUCT.md#local-accounts): an
 * email address → a reset link by email; the answer is the same whether or not the address has an account.
 */
export function ForgotPassword() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: (address: string) => call(ENDPOINTS.accounts.requestReset, { body: { email: address } }),
  });

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className="mt-3 text-sm text-brand-700 hover:underline">
        Forgot password?
      </button>
    );
  }
  if (request.isSuccess) {
    return (
      <p role="status" className="mt-3 text-sm text-slate-700">
        {ACCOUNT_TEXTS.resetRequested}
      </p>
    );
  }
  return (
    <form
      className="mt-3 space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        request.mutate(email.trim());
      }}
    >
      <TextField label="Your email address" type="email" required value={email} onChange={setEmail} autoFocus />
      {request.error && <Alert variant="box">{errorText(request.error)}</Alert>}
      <button type="submit" className={buttonClass('secondary')} disabled={request.isPending || !email.trim()}>
        {request.isPending ? 'Sending…' : 'Send reset link'}
      </button>
    </form>
  );
}
