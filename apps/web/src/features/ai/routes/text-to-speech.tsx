import { Download, Volume2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { TEXT_TO_SPEECH_MAX_CHARS } from '@atrium/contracts';
import { useSynthesizeSpeech } from '../api/ai-api';
import { AiPage, buttonClass, secondaryButtonClass, Working } from '../components/ai-page';
import { Alert, ErrorDetail } from '../components/alert';
import { SaveToFiles } from '../components/save-to-files';
import { useObjectUrl } from '../hooks/use-object-url';
import { audioExtension } from '../lib/stored-files';

export default function TextToSpeechPage() {
  const textId = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const synthesize = useSynthesizeSpeech();
  const audioUrl = useObjectUrl(synthesize.data);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setProblem('Please enter some text to synthesize.');
      return;
    }
    setProblem(null);
    synthesize.mutate(text);
  };

  return (
    <AiPage title="Text to Speech" intro="Type some text and listen to it in a US English female voice.">
      <form
        onSubmit={submit}
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        noValidate
      >
        <div>
          <label htmlFor={textId} className="mb-2 block text-sm font-medium text-slate-800">
            Text
          </label>
          <textarea
            id={textId}
            rows={6}
            maxLength={TEXT_TO_SPEECH_MAX_CHARS}
            value={text}
            onChange={(event) => setText(event.target.value)}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600"
            placeholder="Enter the text to speak…"
          />
          <p className="mt-1 text-right text-xs text-slate-500">
            {text.length} / {TEXT_TO_SPEECH_MAX_CHARS}
          </p>
        </div>
        <button type="submit" className={buttonClass} disabled={synthesize.isPending}>
          <Volume2 className="size-4" aria-hidden="true" /> Synthesize
        </button>
        {synthesize.isPending && <Working label="Synthesizing…" />}
        {problem && <Alert>{problem}</Alert>}
        {synthesize.isError && (
          <Alert>
            Failed to synthesize speech. Please try again.
            <ErrorDetail error={synthesize.error} />
          </Alert>
        )}
      </form>
      {audioUrl && (
        <section
          aria-labelledby="speech-heading"
          className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id="speech-heading" className="text-lg font-semibold text-slate-900">
            Result
          </h2>
          <audio controls src={audioUrl} className="w-full" aria-label="Synthesized speech" />
          <div className="flex flex-wrap items-start gap-3">
            <a href={audioUrl} download="speech.mp3" className={secondaryButtonClass}>
              <Download className="size-4" aria-hidden="true" /> Download MP3
            </a>
            {synthesize.data && (
              <SaveToFiles
                what="speech"
                make={() => {
                  // The answer's own bytes and type (audio/mpeg today).
                  const audio = synthesize.data;
                  return new File([audio], `speech.${audioExtension(audio.type)}`, {
                    type: audio.type || 'audio/mpeg',
                  });
                }}
              />
            )}
          </div>
        </section>
      )}
    </AiPage>
  );
}
