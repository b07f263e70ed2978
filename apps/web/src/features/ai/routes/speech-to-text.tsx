import { Mic, Square, Upload } from 'lucide-react';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { downloadUrl } from '../../../lib/file-urls';
import { useTranscribeAudio, type AiInput } from '../api/ai-api';
import { ChooseFromFiles, ChosenFile } from '../components/choose-from-files';
import { SaveToFiles } from '../components/save-to-files';
import { baseName, inputName, isWavRecord, textFile } from '../lib/stored-files';
import { AiPage, buttonClass, fileInputClass, secondaryButtonClass, Working } from '../components/ai-page';
import { Alert, ErrorDetail } from '../components/alert';
import { useObjectUrl } from '../hooks/use-object-url';
import { MAX_RECORDING_SECONDS, useRecorder } from '../hooks/use-recorder';

const isWav = (file: File) => isWavRecord({ contentType: file.type, fileName: file.name });

export default function SpeechToTextPage() {
  const inputId = useId();
  const [audio, setAudio] = useState<AiInput | null>(null);
  /** Changes when a stored file is chosen, so the file input forgets an earlier upload. */
  const [inputKey, setInputKey] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const transcribe = useTranscribeAudio();
  const uploadUrl = useObjectUrl(audio?.kind === 'upload' ? audio.blob : undefined);
  const previewUrl = audio?.kind === 'stored' ? downloadUrl(audio.file.id, true) : uploadUrl;
  const onRecorded = useCallback(
    (wav: Blob) => {
      setAudio({ kind: 'upload', blob: wav, name: 'recording.wav' });
      setProblem(null);
      transcribe.reset();
    },
    [transcribe],
  );
  const recorder = useRecorder(onRecorded);
  /** The input of the transcript on screen (the mutation's own variables: a later pick does not rename it). */
  const transcribed = transcribe.variables;
  const recording = recorder.state.status === 'recording';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!audio) {
      setProblem('Please select an audio file first');
      return;
    }
    setProblem(null);
    transcribe.mutate(audio);
  };

  return (
    <AiPage
      title="Speech to Text"
      intro="Choose a WAV file or record from your microphone, then transcribe it (US English)."
    >
      <form
        onSubmit={submit}
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        noValidate
      >
        <div>
          <label htmlFor={inputId} className="mb-2 block text-sm font-medium text-slate-800">
            Audio file (WAV)
          </label>
          <input
            key={inputKey}
            id={inputId}
            type="file"
            accept="audio/wav,audio/x-wav,.wav"
            className={fileInputClass}
            onChange={(event) => {
              const file = event.target.files?.[0];
              transcribe.reset();
              if (!file) {
                setAudio(null);
                return;
              }
              if (!isWav(file)) {
                setAudio(null);
                setProblem('Please select a WAV audio file.');
                event.target.value = '';
                return;
              }
              setProblem(null);
              setAudio({ kind: 'upload', blob: file, name: file.name });
            }}
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <ChooseFromFiles
            accept={isWavRecord}
            acceptLabel="WAV audio files"
            disabled={recording || transcribe.isPending}
            onPick={(file) => {
              setAudio({ kind: 'stored', file });
              setInputKey((key) => key + 1);
              setProblem(null);
              transcribe.reset();
            }}
          />
          {recording ? (
            <button type="button" className={secondaryButtonClass} onClick={recorder.stop}>
              <Square className="size-4 text-red-600" aria-hidden="true" /> Stop recording
            </button>
          ) : (
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => void recorder.start()}
              disabled={recorder.state.status === 'converting' || transcribe.isPending}
            >
              <Mic className="size-4" aria-hidden="true" /> Record from microphone
            </button>
          )}
          {recorder.state.status === 'recording' && (
            <span role="status" className="text-sm text-red-700">
              Recording… {recorder.state.seconds}s (stops at {MAX_RECORDING_SECONDS}s)
            </span>
          )}
          {recorder.state.status === 'converting' && <Working label="Converting the recording to WAV…" />}
        </div>
        {recorder.state.status === 'error' && <Alert>{recorder.state.message}</Alert>}
        {audio && previewUrl && (
          <div className="space-y-1">
            {audio.kind === 'stored' ? (
              <ChosenFile file={audio.file} />
            ) : (
              <p className="text-sm text-slate-600">
                Selected: <span className="font-medium text-slate-800">{audio.name}</span>
              </p>
            )}
            <audio controls src={previewUrl} className="w-full" aria-label="Selected audio" />
          </div>
        )}
        <button type="submit" className={buttonClass} disabled={transcribe.isPending || recording}>
          <Upload className="size-4" aria-hidden="true" /> Transcribe
        </button>
        {transcribe.isPending && <Working label="Transcribing…" />}
        {problem && <Alert>{problem}</Alert>}
        {transcribe.isError && (
          <Alert>
            Failed to transcribe audio. Please try again.
            <ErrorDetail error={transcribe.error} />
          </Alert>
        )}
      </form>
      {transcribe.data && (
        <section
          aria-labelledby="transcription-heading"
          className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id="transcription-heading" className="text-lg font-semibold text-slate-900">
            Transcription
          </h2>
          {transcribe.data.DisplayText ? (
            <p className="mt-2 whitespace-pre-wrap text-slate-800" data-testid="transcript">
              {transcribe.data.DisplayText}
            </p>
          ) : (
            <p className="mt-2 text-slate-600">No speech was recognised in this recording.</p>
          )}
          {transcribe.data.DisplayText && transcribed && (
            <div className="mt-4">
              <SaveToFiles
                what="transcript"
                make={() =>
                  textFile(
                    `${transcribe.data?.DisplayText ?? ''}\n`,
                    `${baseName(inputName(transcribed), 'recording')} transcript.txt`,
                  )
                }
              />
            </div>
          )}
        </section>
      )}
    </AiPage>
  );
}
