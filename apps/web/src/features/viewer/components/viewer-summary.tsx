import { ListTree } from 'lucide-react';
import { AskResult } from '../../../components/ask/ask-result';
import { useAsk } from '../../../components/ask/use-ask';
import { buttonClass } from '../../../components/ui/button';

/**
 * "Summarise" in the viewer for a document or a recording (docs/PRODUCT.md#ask-your-files): its summary from what
 * analysis read, each sentence cited; Cancel stops it.
 */
export function ViewerSummary({ fileId }: { fileId: string }) {
  const summary = useAsk();
  return (
    <div className="space-y-3">
      <button
        type="button"
        onClick={() => summary.ask({ question: 'Summarise', fileId, summarise: true })}
        disabled={summary.state.status === 'asking'}
        className={buttonClass('secondary')}
      >
        <ListTree aria-hidden="true" className="size-4" /> Summarise
      </button>
      <AskResult state={summary.state} onCancel={summary.cancel} label="Summary" waiting="Summarising…" />
    </div>
  );
}
