import { useCallback, useEffect, useRef, useState } from 'react';
import { toSpeechWav } from '../../../lib/audio/wav';

export const MAX_RECORDING_SECONDS = 60;

type RecorderState =
  | { status: 'idle' }
  | { status: 'recording'; seconds: number }
  | { status: 'converting' }
  | { status: 'error'; message: string };

/**
 * Records from the microphone with MediaRecorder and hands back a 16 kHz mono
 * WAV (converted in the browser). Stops by itself after 60 s, the server's limit.
 */
export function useRecorder(onRecorded: (wav: Blob) => void) {
  const [state, setState] = useState<RecorderState>({ status: 'idle' });
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const onRecordedRef = useRef(onRecorded);
  useEffect(() => {
    onRecordedRef.current = onRecorded;
  }, [onRecorded]);

  const stop = useCallback(() => {
    window.clearInterval(timer.current);
    if (recorder.current?.state === 'recording') recorder.current.stop();
  }, []);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      setState({ status: 'error', message: 'Recording is not supported in this browser.' });
      return;
    }
    let stream: MediaStream;
    try {
      // No automatic gain control: it drives speech into clipping, which the recogniser misreads.
      stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, autoGainControl: false } });
    } catch {
      setState({ status: 'error', message: 'Microphone access was denied.' });
      return;
    }
    const chunks: Blob[] = [];
    const media = new MediaRecorder(stream);
    recorder.current = media;
    media.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    media.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      setState({ status: 'converting' });
      toSpeechWav(new Blob(chunks, { type: media.mimeType }))
        .then((wav) => {
          setState({ status: 'idle' });
          onRecordedRef.current(wav);
        })
        .catch(() => setState({ status: 'error', message: 'The recording could not be converted to WAV.' }));
    };
    media.start(250);
    const startedAt = Date.now();
    setState({ status: 'recording', seconds: 0 });
    timer.current = window.setInterval(() => {
      const seconds = Math.floor((Date.now() - startedAt) / 1000);
      if (seconds >= MAX_RECORDING_SECONDS) stop();
      else setState({ status: 'recording', seconds });
    }, 250);
  }, [stop]);

  useEffect(
    () => () => {
      window.clearInterval(timer.current);
      if (recorder.current?.state === 'recording') recorder.current.stop();
    },
    [],
  );

  return { state, start, stop };
}
