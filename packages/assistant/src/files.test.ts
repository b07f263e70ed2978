import { describe, expect, it } from 'vitest';
import {
  SIGN_IN_FOR_FILES_REPLY,
  describeFileAnswer,
  openFileAnswer,
  parseFileCommand,
  pickFile,
  searchFilesAnswer,
  searchFilesSpoken,
} from './files';
import { UNKNOWN_COMMAND_REPLY, respond, respondToSpeech } from './respond';

describe('parseFileCommand: search', () => {
  it.each([
    ['search files for zebrafish', 'zebrafish'],
    ['Search files for Zebrafish', 'Zebrafish'],
    ['SEARCH MY FILES FOR budget 2026', 'budget 2026'],
    ['search the files for “quarterly report”', 'quarterly report'],
    ['search files for "quarterly report".', 'quarterly report'],
    ["search files for 'invoice'?", 'invoice'],
    ['search my documents for invoices', 'invoices'],
    ['please search files for zebrafish', 'zebrafish'],
    ['can you search my files for zebrafish please', 'zebrafish'],
    ['find files zebrafish', 'zebrafish'],
    ['find files about zebrafish', 'zebrafish'],
    ['find files containing zebrafish!', 'zebrafish'],
    ['Find me files about the harbour', 'the harbour'],
    ['search for zebrafish', 'zebrafish'],
    ['Search for: zebrafish', 'zebrafish'],
    ['search for files about zebrafish', 'zebrafish'],
    ['look for zebrafish', 'zebrafish'],
    ['look through my files for zebrafish', 'zebrafish'],
    ['search zebrafish', 'zebrafish'],
    ['find zebrafish', 'zebrafish'],
    ['search files for the word zebrafish', 'zebrafish'],
    ['show me files about zebrafish', 'zebrafish'],
    ['list files containing zebrafish', 'zebrafish'],
    ['which files mention zebrafish', 'zebrafish'],
    ['  search   files   for   zebra   fish  ', 'zebra fish'],
  ])('"%s" searches for "%s"', (input, query) => {
    expect(parseFileCommand(input)).toEqual({ kind: 'search', query });
  });

  it.each(['search', 'search for', 'search files', 'find', 'find files', 'search for ""'])(
    'nothing to search for: "%s"',
    (input) => {
      expect(parseFileCommand(input)).toBeUndefined();
    },
  );
});

describe('parseFileCommand: what is in', () => {
  it.each([
    ['what is in report.pdf', 'report.pdf'],
    ['What is in Report.PDF?', 'Report.PDF'],
    ["what's in the file notes.txt", 'notes.txt'],
    ['what’s in “Quarterly plan.docx”', 'Quarterly plan.docx'],
    ['whats inside budget.xlsx', 'budget.xlsx'],
    ['tell me what is in the harbour photo', 'harbour photo'],
    ['what does meeting.mp3 say', 'meeting.mp3'],
    ['what does the file minutes contain?', 'minutes'],
    ['describe holiday.jpg', 'holiday.jpg'],
    ['summarise the file notes', 'notes'],
    ['what is in report dot pdf', 'report.pdf'],
    ['please, what is in "the plan".', 'the plan'],
  ])('"%s" asks about "%s"', (input, name) => {
    expect(parseFileCommand(input)).toEqual({ kind: 'describe', name });
  });
});

describe('parseFileCommand: open', () => {
  it.each([
    ['open report.pdf', 'report.pdf'],
    ['Open Report.PDF.', 'Report.PDF'],
    ['open "quarterly plan"', 'quarterly plan'],
    ['open “the plan”', 'the plan'],
    ['open file notes', 'notes'],
    ['open the file called Budget 2026', 'Budget 2026'],
    ['open my file named minutes', 'minutes'],
    ['show me the document called roadmap', 'roadmap'],
    ['please open zebrafish-report.txt', 'zebrafish-report.txt'],
    ['open zebrafish report dot txt', 'zebrafish report.txt'],
    ['open the photo holiday', 'holiday'],
  ])('"%s" opens "%s"', (input, name) => {
    expect(parseFileCommand(input)).toEqual({ kind: 'open', name });
  });

  it('"open <anything>" is a file only when asked for (signed in)', () => {
    expect(parseFileCommand('open the door')).toBeUndefined();
    expect(parseFileCommand('open the door', { anyOpen: true })).toEqual({ kind: 'open', name: 'door' });
    expect(parseFileCommand('open budget', { anyOpen: true })).toEqual({ kind: 'open', name: 'budget' });
  });
});

describe('respond with file commands', () => {
  it('page names win: every "open <page>" still opens its page, signed in or not', () => {
    for (const input of ['open file upload', 'open the file list', 'open file', 'open files', 'open my files']) {
      expect(respond(input, { signedIn: true }).intent, input).toBe('navigate');
    }
    expect(respond('open file preview', { signedIn: true }).navigateTo).toBe('/dashboard/file-preview');
  });

  it('answers a file command with a progress line and the command to run', () => {
    expect(respond('search files for zebrafish')).toEqual({
      intent: 'search-files',
      text: 'Searching your files for “zebrafish”…',
      fileCommand: { kind: 'search', query: 'zebrafish' },
    });
    expect(respond('open file notes')).toMatchObject({ intent: 'open-file', fileCommand: { name: 'notes' } });
    expect(respond('what is in notes.txt')).toMatchObject({
      intent: 'file-contents',
      fileCommand: { kind: 'describe', name: 'notes.txt' },
    });
  });

  it('"open the door" is not understood unless signed in', () => {
    expect(respond('open the door')).toEqual({ intent: 'unknown', text: UNKNOWN_COMMAND_REPLY });
    expect(respond('open the door', { signedIn: true })).toMatchObject({
      intent: 'open-file',
      fileCommand: { kind: 'open', name: 'door' },
    });
  });

  it('spoken commands reach the same intents (no punctuation, "dot" for the extension)', () => {
    expect(respondToSpeech('search files for zebrafish')).toMatchObject({
      fileCommand: { kind: 'search', query: 'zebrafish' },
    });
    expect(respondToSpeech('what is in report dot pdf')).toMatchObject({
      fileCommand: { kind: 'describe', name: 'report.pdf' },
    });
    expect(respondToSpeech('open budget report', { signedIn: true })).toMatchObject({
      fileCommand: { kind: 'open', name: 'budget report' },
    });
    expect(respondToSpeech('go to pricing', { signedIn: true })).toMatchObject({ navigateTo: '/pricing' });
  });

  it('keeps the other rules', () => {
    expect(respond('what is the weather')).toEqual({ intent: 'unknown', text: UNKNOWN_COMMAND_REPLY });
    expect(respond('who is the owner').intent).toBe('owner');
    expect(respond('help').text).toContain('search files for');
  });
});

describe('answers', () => {
  const files = [
    { id: '1', name: 'report.pdf' },
    { id: '2', name: 'report.txt' },
    { id: '3', name: 'report 2026.pdf' },
  ];

  it('counts the files a search found', () => {
    expect(searchFilesAnswer('zebra', [])).toBe('No files match “zebra”.');
    expect(searchFilesAnswer('zebra', files.slice(0, 1))).toBe('I found 1 file for “zebra”.');
    expect(searchFilesAnswer('zebra', files)).toBe('I found 3 files for “zebra”.');
    expect(searchFilesAnswer('zebra', files, true)).toBe('I found more than 3 files for “zebra”.');
    expect(searchFilesSpoken('zebra', files)).toBe('I found 3 files for “zebra”. The first is report.pdf.');
  });

  it('picks the file a name means, or offers the candidates', () => {
    expect(pickFile('Report.PDF', files).match?.id).toBe('1');
    expect(pickFile('report 2026', files).match?.id).toBe('3');
    expect(pickFile('report', files)).toEqual({ choices: files.slice(0, 2) });
    expect(pickFile('2026', files).match?.id).toBe('3');
    expect(pickFile('nothing', [])).toEqual({ choices: [] });
    expect(openFileAnswer('report.pdf', pickFile('report.pdf', files))).toBe('Opening “report.pdf”.');
    expect(openFileAnswer('report', pickFile('report', files))).toBe(
      'I found 2 files that could be “report”. Which one do you mean?',
    );
    expect(openFileAnswer('zebra', { choices: [] })).toBe('I could not find a file named “zebra”.');
  });

  it('tells what is in a file, honestly', () => {
    expect(describeFileAnswer('a.txt', { status: 'pending' })).toBe(
      '“a.txt” is still being analysed. Ask me again in a moment.',
    );
    expect(describeFileAnswer('a.wav', { status: 'running', progress: 0.4 })).toBe(
      '“a.wav” is still being analysed (40% done). Ask me again in a moment.',
    );
    expect(describeFileAnswer('a.bin', { status: 'unsupported', error: 'Files of type x/y are not analysed.' })).toBe(
      'I cannot tell what is in “a.bin”: Files of type x/y are not analysed.',
    );
    expect(describeFileAnswer('a.pdf', { status: 'failed', error: 'boom' })).toBe(
      'The analysis of “a.pdf” failed, so I cannot tell what is in it.',
    );
    expect(describeFileAnswer('a.txt', { status: 'done', text: 'The zebrafish swim\n\nin the harbour.' })).toBe(
      '“a.txt” reads: “The zebrafish swim in the harbour.”',
    );
    const long = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    expect(describeFileAnswer('long.txt', { status: 'done', text: long })).toMatch(/w24…”$/);
    expect(
      describeFileAnswer('dog.jpg', {
        status: 'done',
        caption: 'a dog on grass',
        tags: ['dog', 'grass'],
        text: 'BEWARE',
      }),
    ).toBe('“dog.jpg” shows a dog on grass. Tags: dog, grass. Its text reads: “BEWARE”');
    expect(describeFileAnswer('talk.mp3', { status: 'done', transcript: { text: 'hello world' } })).toBe(
      '“talk.mp3” says: “hello world”',
    );
    expect(describeFileAnswer('blank.png', { status: 'done', tags: [] })).toBe(
      'I found no text, speech or objects in “blank.png”.',
    );
  });

  it('asks a visitor to sign in', () => {
    expect(SIGN_IN_FOR_FILES_REPLY).toMatch(/sign in/i);
  });
});
