import { CONTACT_ADMIN_TEXTS, type ContactMessage, type ContactMessagePatch } from '@atrium/contracts';
import { CheckCircle2, Mail, MailOpen, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useContactMessages, useDeleteContactMessage, useUpdateContactMessage } from '../api/admin-api';

const errorText = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');
const when = (iso: string) => new Date(iso).toLocaleString();
const action =
  'inline-flex min-h-11 items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-50 sm:min-h-0';

function MessageCard({ message, onDelete }: { message: ContactMessage; onDelete: (message: ContactMessage) => void }) {
  const update = useUpdateContactMessage();
  const unread = message.readAt === null;
  const change = (patch: ContactMessagePatch, done: string) =>
    update.mutate(
      { id: message.id, patch },
      { onSuccess: () => showToast('success', done), onError: (error) => showToast('error', errorText(error)) },
    );
  return (
    <li
      className={`rounded-xl bg-white p-4 shadow-sm ${unread ? 'ring-2 ring-brand-500' : 'ring-1 ring-slate-200'}`}
      aria-label={`Message from ${message.name}`}
      data-unread={unread ? 'true' : undefined}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <span className={`text-slate-900 ${unread ? 'font-semibold' : 'font-medium'}`}>{message.name}</span>
            {unread && (
              <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">New</span>
            )}
            {message.handledAt && (
              <span className="inline-flex items-center gap-1 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
                <CheckCircle2 className="size-3.5" aria-hidden="true" />
                Handled
              </span>
            )}
          </div>
          <a href={`mailto:${message.email}`} className="break-all text-sm text-brand-700 underline">
            {message.email}
          </a>
        </div>
        <time dateTime={message.createdAt} className="text-sm text-slate-600">
          {when(message.createdAt)}
        </time>
      </div>
      <p className="mt-3 whitespace-pre-wrap break-words text-slate-800">{message.message}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          type="button"
          className={action}
          disabled={update.isPending}
          onClick={() => change({ read: unread }, unread ? 'Marked as read' : 'Marked as unread')}
        >
          {unread ? <MailOpen className="size-4" aria-hidden="true" /> : <Mail className="size-4" aria-hidden="true" />}
          {unread ? 'Mark read' : 'Mark unread'}
        </button>
        <button
          type="button"
          className={action}
          disabled={update.isPending}
          onClick={() =>
            change(
              { handled: message.handledAt === null },
              message.handledAt === null ? 'Marked as handled' : 'Marked as not handled',
            )
          }
        >
          <CheckCircle2 className="size-4" aria-hidden="true" />
          {message.handledAt === null ? 'Mark handled' : 'Reopen'}
        </button>
        <button
          type="button"
          className={`${action} text-red-700 ring-red-200 hover:bg-red-50`}
          onClick={() => onDelete(message)}
        >
          <Trash2 className="size-4" aria-hidden="true" />
          Delete
        </button>
      </div>
    </li>
  );
}

/** /dashboard/admin/messages: the contact form's messages, newest first, with read, handled and delete. */
export default function AdminMessagesPage() {
  useDocumentTitle('Messages');
  const messages = useContactMessages();
  const remove = useDeleteContactMessage();
  const [deleting, setDeleting] = useState<ContactMessage | null>(null);
  const all = messages.data ?? [];
  const unread = all.filter((message) => message.readAt === null).length;

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => showToast('success', 'Message deleted'),
      onError: (error) => showToast('error', errorText(error)),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <section className="mx-auto max-w-6xl px-4 pb-28 pt-8 sm:pb-12 sm:pt-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Messages</h1>
      <p className="mt-2 text-slate-600">
        What visitors sent through the contact form, newest first.
        {messages.isSuccess && all.length > 0 && ` ${unread} unread.`}
      </p>
      {messages.isPending ? (
        <Spinner />
      ) : messages.isError ? (
        <Alert size="base" className="mt-6">
          {errorText(messages.error)}
        </Alert>
      ) : all.length === 0 ? (
        <p className="mt-6 text-slate-600">{CONTACT_ADMIN_TEXTS.empty}</p>
      ) : (
        <ul className="mt-6 space-y-3" aria-label="Messages">
          {all.map((message) => (
            <MessageCard key={message.id} message={message} onDelete={setDeleting} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the message from ${deleting?.name ?? ''}?`}
        message={CONTACT_ADMIN_TEXTS.deleteConfirm}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
