import { fileCommandProgress, parseFileCommand, type FileCommand } from './files';
import { greetingFor } from './greeting';
import { NAMED_ROUTES, type NamedRoute } from './routes';
import { hasPhrase, normalize } from './text';

/** The reply to anything the assistant does not understand (docs/PRODUCT.md#assistant-replies). */
export const UNKNOWN_COMMAND_REPLY =
  'Sorry, I did not understand that command. Try saying help to see available commands';

/** The launch date the assistant states (docs/PRODUCT.md#assistant-replies). */
export const LAUNCH_DATE = '28 April 2025';

/** Who the assistant names as the product's owner. */
export const OWNER_NAME = 'the Atrium team';

export type Intent =
  | 'navigate'
  | 'help'
  | 'owner'
  | 'launch-date'
  | 'greeting'
  | 'thanks'
  | 'search-files'
  | 'open-file'
  | 'file-contents'
  | 'unknown';

const FILE_INTENTS = { search: 'search-files', open: 'open-file', describe: 'file-contents' } as const;

export interface AssistantReply {
  intent: Intent;
  /** What the chat shows and the voice assistant speaks. */
  text: string;
  /** Set for navigation commands: the route path to open. */
  navigateTo?: string;
  /**
   * Set for file commands (search, open, what is in): the caller runs it as the signed-in user and answers with
   * the sentences of `files.ts`; `text` is the line shown meanwhile.
   */
  fileCommand?: FileCommand;
}

export interface RespondOptions {
  /** The user's local time, for greetings. Defaults to now. */
  now?: Date;
  /**
   * For speech: when no rule matches but the words name a page, open it. Speech recognisers
   * often mishear the short verb of a command ("go to pricing" came back as "but the pricing"),
   * while the page's name survives; typed chat keeps the strict rules.
   */
  lenient?: boolean;
  /**
   * The user is signed in: "open <anything>" that names no page opens a file of that name. Without it, "open the
   * door" stays a command the assistant does not understand.
   */
  signedIn?: boolean;
}

const NAVIGATION_VERBS = [
  'open',
  'open up',
  'go to',
  'go',
  'goto',
  'take me to',
  'take me',
  'bring me to',
  'navigate to',
  'navigate',
  'show me',
  'show',
  'visit',
  'launch',
  'switch to',
  'i want to see',
  'i want to go to',
];

/** Every (name, route) pair, longest name first, so "file upload" wins over "file". */
const ROUTE_NAMES: readonly { name: string; route: NamedRoute }[] = NAMED_ROUTES.flatMap((route) =>
  route.names.map((name) => ({ name, route })),
).sort((a, b) => b.name.length - a.name.length);

/** The route named in `text`, if any (whole words, most specific name first). */
export function findRoute(text: string): NamedRoute | undefined {
  const normalized = normalize(text);
  return ROUTE_NAMES.find(({ name }) => hasPhrase(normalized, name))?.route;
}

const stripPolite = (text: string) =>
  text
    .replace(/^(please |hey assistant |assistant |can you |could you |would you )+/, '')
    .replace(/( please)+$/, '')
    .trim();

const stripFillers = (text: string) =>
  stripPolite(text)
    .replace(/( page| the page| section| screen)+$/, '')
    .replace(/^(the |my )/, '')
    .trim();

const VERBS_LONGEST_FIRST = [...NAVIGATION_VERBS].sort((a, b) => b.length - a.length);
const verbOf = (text: string) =>
  VERBS_LONGEST_FIRST.find((candidate) => text === candidate || text.startsWith(`${candidate} `));
const exactRoute = (name: string) => ROUTE_NAMES.find((entry) => entry.name === name)?.route;

/**
 * "open file upload", "go to the pricing page": a verb and exactly a page's name. Checked before file commands, so
 * a page's name always opens the page.
 */
function matchExactNavigation(normalized: string): NamedRoute | undefined {
  const text = stripPolite(normalized);
  const verb = verbOf(text);
  const target = verb ? text.slice(verb.length).trim() : text;
  return target ? (exactRoute(target) ?? exactRoute(stripFillers(target))) : undefined;
}

/** "open files" → /dashboard/files; a bare page name ("pricing") works too. */
function matchNavigation(normalized: string): NamedRoute | undefined {
  const text = stripPolite(normalized);
  const verb = verbOf(text);
  if (verb) {
    const target = text.slice(verb.length).trim();
    return target ? (findRoute(target) ?? findRoute(stripFillers(target))) : undefined;
  }
  const bare = stripFillers(text);
  return ROUTE_NAMES.find(({ name }) => name === text || name === bare)?.route;
}

const HELP =
  /^(help|help me|what can you do|what can i say|what can i ask|commands|show commands|list commands|available commands|how does this work)$/;
const OWNER = /\b(owner|owns|owned)\b|^who (made|built|created|developed|runs) (you|this|atrium|it)\b/;
const LAUNCH =
  /\b(launch date|creation date|release date|launched|released)\b|^when (was|were|did) .*\b(created|made|built|launched|released|start|started|born)\b|^how old (are you|is atrium|is it)/;
const GREETING =
  /^(hello|hi|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day)|hello there|hi there|hey there)( (assistant|atrium|bot))?$/;
const THANKS = /^(thanks|thank you|thank you very much|thanks a lot|cheers)$/;

/** The help text: everything the assistant can do. */
export const HELP_REPLY =
  'I can open any page for you: say "open files", "go to pricing" or "take me to speech to text" ' +
  '(also home, about, features, reviews, contact, login, dashboard, profile, notifications, file upload, ' +
  'file list, file preview, file stats, text to speech, face detection, image analysis and the chatbot). ' +
  'I can also tell you who the owner is and when Atrium was created, and I answer greetings. ' +
  'Signed in, I search your files ("search files for invoice"), open one ("open report.pdf") ' +
  'and tell you what is in it ("what is in report.pdf").';

/**
 * The rule-based assistant shared by chat and voice: one input, one reply.
 * Pure: no browser APIs; the caller navigates when `navigateTo` is set.
 */
export function respond(input: string, options: RespondOptions = {}): AssistantReply {
  const normalized = normalize(input);
  if (!normalized) return { intent: 'unknown', text: UNKNOWN_COMMAND_REPLY };

  const exact = matchExactNavigation(normalized);
  if (exact) return { intent: 'navigate', text: `Opening ${exact.label}.`, navigateTo: exact.path };
  const fileCommand = parseFileCommand(input);
  if (fileCommand) return fileReply(fileCommand);
  const route = matchNavigation(normalized);
  if (route) return { intent: 'navigate', text: `Opening ${route.label}.`, navigateTo: route.path };
  if (HELP.test(stripFillers(normalized))) return { intent: 'help', text: HELP_REPLY };
  if (OWNER.test(normalized)) {
    return { intent: 'owner', text: `Atrium is owned and maintained by ${OWNER_NAME}.` };
  }
  if (LAUNCH.test(normalized)) {
    return { intent: 'launch-date', text: `Atrium was created and launched on ${LAUNCH_DATE}.` };
  }
  if (GREETING.test(normalized)) {
    const greeting = greetingFor(options.now ?? new Date());
    return { intent: 'greeting', text: `${greeting}! I am the Atrium assistant. How can I help you today?` };
  }
  if (THANKS.test(normalized)) return { intent: 'thanks', text: 'You are welcome! Anything else I can do?' };
  const named = options.lenient ? findRoute(normalized) : undefined;
  if (named) return { intent: 'navigate', text: `Opening ${named.label}.`, navigateTo: named.path };
  const anyOpen = options.signedIn ? parseFileCommand(input, { anyOpen: true }) : undefined;
  if (anyOpen) return fileReply(anyOpen);
  return { intent: 'unknown', text: UNKNOWN_COMMAND_REPLY };
}

const fileReply = (command: FileCommand): AssistantReply => ({
  intent: FILE_INTENTS[command.kind],
  text: fileCommandProgress(command),
  fileCommand: command,
});

/** The voice assistant's rules: `respond` with `lenient` on (see RespondOptions). */
export const respondToSpeech = (input: string, options: Omit<RespondOptions, 'lenient'> = {}): AssistantReply =>
  respond(input, { ...options, lenient: true });

export interface QuickCommand {
  label: string;
  /** The text sent as if typed. */
  command: string;
}

/** The chat's six quick commands (docs/PRODUCT.md#quick-commands). */
export const QUICK_COMMANDS: readonly QuickCommand[] = [
  { label: 'Help', command: 'help' },
  { label: 'Who is the owner?', command: 'who is the owner' },
  { label: 'When was it created?', command: 'when was Atrium created' },
  { label: 'Say hello', command: 'hello' },
  { label: 'Open files', command: 'open files' },
  { label: 'Go to pricing', command: 'go to pricing' },
];
