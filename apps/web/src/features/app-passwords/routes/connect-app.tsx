import { LOGIN_FLOW_TEXTS } from '@atrium/contracts';
import { MonitorSmartphone } from 'lucide-react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { useGrantLoginFlow, useLoginFlow } from '../api/app-passwords-api';

const errorText = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');

/**
 * The Nextcloud Login Flow v2 page (docs/PRODUCT.md#nextcloud-clients): a desktop or phone client opened it; the
 * signed-in person (the dashboard signs them in first, second factor included) sees "Grant access to <client>" and
 * grants it; the client's next poll receives a new app password, listed in Profile → App passwords.
 */
export default function ConnectAppRoute() {
  const { token = '' } = useParams();
  const flow = useLoginFlow(token);
  const grant = useGrantLoginFlow();
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-labelledby="connect-app">
        <h1 id="connect-app" className="flex items-center gap-2 text-xl font-semibold text-slate-900">
          <MonitorSmartphone aria-hidden className="h-5 w-5" />
          {LOGIN_FLOW_TEXTS.title}
        </h1>
        {flow.isPending && <Spinner />}
        {flow.isError && (
          <Alert variant="box" className="mt-4">
            {errorText(flow.error)}
          </Alert>
        )}
        {flow.data && !grant.isSuccess && (
          <>
            <p className="mt-4 text-base text-slate-800">
              {LOGIN_FLOW_TEXTS.grantPrefix} <strong className="break-words">{flow.data.clientName}</strong>
            </p>
            <p className="mt-2 text-sm text-slate-600">{LOGIN_FLOW_TEXTS.explain}</p>
            {grant.isError && (
              <Alert variant="box" className="mt-4">
                {errorText(grant.error)}
              </Alert>
            )}
            <button
              type="button"
              className={`${buttonClass('primary')} mt-6`}
              disabled={grant.isPending}
              onClick={() => grant.mutate(token)}
            >
              {LOGIN_FLOW_TEXTS.grant}
            </button>
          </>
        )}
        {grant.isSuccess && (
          <p role="status" className="mt-4 text-base text-green-800">
            {LOGIN_FLOW_TEXTS.granted}
          </p>
        )}
      </section>
    </div>
  );
}
