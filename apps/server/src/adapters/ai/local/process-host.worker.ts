/**
 * The process host's entry (a child process, see `process-host.ts`): runs each pipeline it is sent with
 * `runPipelineHere` and answers with the output or the error, over the IPC channel.
 */
import { serializeError } from './errors.js';
import type { HostReply, HostRequest } from './process-host.js';
import { runPipelineHere } from './system.js';

process.on('message', (message: HostRequest) => {
  const { id, stages, input, timeoutMs, maxOutputBytes, label } = message;
  const reply = (answer: HostReply) => process.send?.(answer);
  runPipelineHere(stages, { ...(input ? { input } : {}), timeoutMs, maxOutputBytes, label }).then(
    (output) => reply({ id, output }),
    (error: unknown) => reply({ id, error: serializeError(error) }),
  );
});
// The server is gone (or let the host go): so is the host. Its running programs are killed by their own timers or
// end on their own.
process.on('disconnect', () => process.exit(0));
