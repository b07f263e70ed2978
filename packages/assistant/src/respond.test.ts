import { describe, expect, it } from 'vitest';
import { HELP_REPLY, QUICK_COMMANDS, UNKNOWN_COMMAND_REPLY, findRoute, respond, respondToSpeech } from './respond';
import { NAMED_ROUTES } from './routes';

const SPEC_ROUTES = [
  '/',
  '/about',
  '/features',
  '/pricing',
  '/contact',
  '/testimonials',
  '/login',
  '/dashboard',
  '/dashboard/profile',
  '/dashboard/notifications',
  '/dashboard/files',
  '/dashboard/file-upload',
  '/dashboard/file-list',
  '/dashboard/file-download',
  '/dashboard/file-delete',
  '/dashboard/file-stats',
  '/dashboard/file-preview',
  '/dashboard/speech-to-text',
  '/dashboard/text-to-speech',
  '/dashboard/face-detection',
  '/dashboard/image-analysis',
  '/dashboard/admin/push-message',
  '/dashboard/chatbot',
];

describe('navigation commands', () => {
  it('names every route of the product', () => {
    expect(NAMED_ROUTES.map((route) => route.path).sort()).toEqual([...SPEC_ROUTES].sort());
  });

  it.each([
    ['open files', '/dashboard/files'],
    ['Go to pricing', '/pricing'],
    ['take me to speech to text', '/dashboard/speech-to-text'],
    ['Take me to text to speech!', '/dashboard/text-to-speech'],
    ['open the file list', '/dashboard/file-list'],
    ['please open file upload', '/dashboard/file-upload'],
    ['navigate to face detection', '/dashboard/face-detection'],
    ['show me image analysis', '/dashboard/image-analysis'],
    ['go to reviews', '/testimonials'],
    ['open testimonials', '/testimonials'],
    ['go home', '/'],
    ['go to the home page', '/'],
    ['open about', '/about'],
    ['open features', '/features'],
    ['open contact', '/contact'],
    ['go to login', '/login'],
    ['open dashboard', '/dashboard'],
    ['open my profile', '/dashboard/profile'],
    ['show notifications', '/dashboard/notifications'],
    ['open file stats', '/dashboard/file-stats'],
    ['open file preview', '/dashboard/file-preview'],
    ['open file download', '/dashboard/file-download'],
    ['open file delete', '/dashboard/file-delete'],
    ['open push message', '/dashboard/admin/push-message'],
    ['open the chatbot', '/dashboard/chatbot'],
    ['pricing', '/pricing'],
    ['speech to text', '/dashboard/speech-to-text'],
  ])('"%s" → %s', (input, path) => {
    const reply = respond(input);
    expect(reply.intent).toBe('navigate');
    expect(reply.navigateTo).toBe(path);
    expect(reply.text).toMatch(/^Opening .+\.$/);
  });

  it('reaches every route by each of its names with "open"', () => {
    for (const route of NAMED_ROUTES) {
      for (const name of route.names) {
        expect(respond(`open ${name}`).navigateTo, name).toBe(route.path);
      }
    }
  });

  it('prefers the most specific name', () => {
    expect(findRoute('file upload')?.path).toBe('/dashboard/file-upload');
    expect(findRoute('files')?.path).toBe('/dashboard/files');
  });

  it('does not navigate for a verb without a known page', () => {
    expect(respond('open the door')).toEqual({ intent: 'unknown', text: UNKNOWN_COMMAND_REPLY });
    expect(respond('go')).toMatchObject({ intent: 'unknown' });
  });
});

describe('speech (lenient) rules', () => {
  it.each([
    ['but the pricing', '/pricing'],
    ['built in the pricing page', '/pricing'],
    ['i think the files are there', '/dashboard/files'],
    ['and speech to text now', '/dashboard/speech-to-text'],
  ])('a misheard command that still names a page opens it: "%s"', (input, path) => {
    expect(respondToSpeech(input)).toMatchObject({ intent: 'navigate', navigateTo: path });
    expect(respond(input)).toEqual({ intent: 'unknown', text: UNKNOWN_COMMAND_REPLY }); // typed chat stays strict
  });

  it('keeps every other rule first, and still does not understand speech without a page name', () => {
    expect(respondToSpeech('who is the owner')).toMatchObject({ intent: 'owner' });
    expect(respondToSpeech('help')).toMatchObject({ intent: 'help' });
    expect(respondToSpeech('go to pricing')).toMatchObject({ intent: 'navigate', navigateTo: '/pricing' });
    expect(respondToSpeech('open the door')).toEqual({ intent: 'unknown', text: UNKNOWN_COMMAND_REPLY });
    expect(respondToSpeech('take me to try saying')).toEqual({ intent: 'unknown', text: UNKNOWN_COMMAND_REPLY });
  });
});

describe('other rules', () => {
  it.each(['who is the owner', 'Who owns Atrium?', 'who made you', 'owner'])('owner: "%s"', (input) => {
    expect(respond(input)).toEqual({ intent: 'owner', text: 'Atrium is owned and maintained by the Atrium team.' });
  });

  it.each(['when was Atrium created', 'When were you launched?', 'launch date', 'what is the creation date'])(
    'launch date: "%s"',
    (input) => {
      expect(respond(input)).toEqual({
        intent: 'launch-date',
        text: 'Atrium was created and launched on 28 April 2025.',
      });
    },
  );

  it.each(['help', 'Help!', 'what can you do', 'please help', 'commands'])('help: "%s"', (input) => {
    expect(respond(input)).toEqual({ intent: 'help', text: HELP_REPLY });
  });

  it('help lists what it can do', () => {
    for (const part of ['open files', 'go to pricing', 'speech to text', 'owner', 'created', 'greetings']) {
      expect(HELP_REPLY).toContain(part);
    }
  });

  it.each([
    ['hello', 9, 'Good Morning'],
    ['Hi there', 14, 'Good Afternoon'],
    ['hey', 20, 'Good Evening'],
    ['good morning', 19, 'Good Evening'],
  ])('greeting "%s" at %i:00 → %s', (input, hour, greeting) => {
    const reply = respond(input, { now: new Date(2025, 3, 28, hour, 0) });
    expect(reply).toEqual({
      intent: 'greeting',
      text: `${greeting}! I am the Atrium assistant. How can I help you today?`,
    });
  });

  it('thanks', () => {
    expect(respond('thank you').intent).toBe('thanks');
  });

  it.each(['', '   ', 'what is the weather', 'asdf qwer', '!!!', 'tell me a joke'])('unknown: "%s"', (input) => {
    expect(respond(input)).toEqual({
      intent: 'unknown',
      text: 'Sorry, I did not understand that command. Try saying help to see available commands',
    });
  });
});

describe('quick commands', () => {
  it('has six, each answered by a rule', () => {
    expect(QUICK_COMMANDS).toHaveLength(6);
    for (const quick of QUICK_COMMANDS) {
      expect(respond(quick.command).intent, quick.command).not.toBe('unknown');
    }
    expect(new Set(QUICK_COMMANDS.map((quick) => respond(quick.command).intent)).size).toBe(6 - 1);
  });
});
