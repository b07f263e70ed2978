export {
  FILE_COMMAND_MAX,
  SIGN_IN_FOR_FILES_REPLY,
  describeFileAnswer,
  fileCommandProgress,
  firstWords,
  openFileAnswer,
  parseFileCommand,
  pickFile,
  searchFilesAnswer,
  searchFilesSpoken,
  type FileCommand,
  type FoundFile,
  type InsightsLike,
  type ParseFileOptions,
} from './files';
export { greetingFor, type Greeting } from './greeting';
export { NAMED_ROUTES, type NamedRoute } from './routes';
export {
  HELP_REPLY,
  LAUNCH_DATE,
  OWNER_NAME,
  QUICK_COMMANDS,
  UNKNOWN_COMMAND_REPLY,
  findRoute,
  respond,
  respondToSpeech,
  type AssistantReply,
  type Intent,
  type QuickCommand,
  type RespondOptions,
} from './respond';
export { normalize } from './text';
export {
  VOICE_MESSAGES,
  VOICE_SETTINGS,
  microphoneErrorCode,
  pickVoice,
  voiceErrorMessage,
  type VoiceLike,
} from './voice';
