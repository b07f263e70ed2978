import type { AskRequest, AskResponse } from '@atrium/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../lib/api-error';
import { askFiles } from '../../lib/ask';

export type AskState =
  | { status: 'idle' }
  | { status: 'asking'; partial: string }
  | { status: 'done'; response: AskResponse }
  | { status: 'error'; message: string };

/**
 * One question at a time to `POST /api/ask`, streamed: `asking` with the text so far, then `done` or `error`.
 * Asking again or `cancel` aborts the question in flight (and the server stops its model); so does unmounting.
 */
export function useAsk() {
  const [state, setState] = useState<AskState>({ status: 'idle' });
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const cancel = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState({ status: 'idle' });
  }, []);

  const ask = useCallback((request: AskRequest) => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setState({ status: 'asking', partial: '' });
    askFiles(request, {
      signal: controller.signal,
      onDelta: (text) =>
        setState((before) =>
          before.status === 'asking'
            ? { status: 'asking', partial: `${before.partial}${before.partial ? ' ' : ''}${text}` }
            : before,
        ),
    }).then(
      (response) => {
        if (current.current === controller) setState({ status: 'done', response });
      },
      (error: unknown) => {
        if (current.current === controller && !controller.signal.aborted)
          setState({ status: 'error', message: errorText(error) ?? 'Could not answer.' });
      },
    );
  }, []);

  return { state, ask, cancel };
}
