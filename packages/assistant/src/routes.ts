import { PAGES, type Page } from '@atrium/contracts/pages';

/** A page the assistant can open, with the names people use for it. */
export interface NamedRoute {
  path: string;
  /** Shown in replies, e.g. "Opening Pricing." */
  label: string;
  /** Lower-case names and aliases, matched as whole words. */
  names: readonly string[];
}

const named = (page: Page, names: readonly string[]): NamedRoute => ({ path: page.path, label: page.title, names });

/** The pages the assistant opens by name (docs/PRODUCT.md#web-routes), from the one page table. */
export const NAMED_ROUTES: readonly NamedRoute[] = [
  named(PAGES.home, ['home', 'home page', 'homepage', 'landing page', 'start page']),
  named(PAGES.about, ['about', 'about us', 'about page']),
  named(PAGES.features, ['features', 'feature list', 'features page']),
  named(PAGES.pricing, ['pricing', 'prices', 'price', 'plans', 'pricing page']),
  named(PAGES.contact, ['contact', 'contact us', 'contact page']),
  named(PAGES.testimonials, ['testimonials', 'reviews', 'review', 'testimonial']),
  named(PAGES.login, ['login', 'log in', 'sign in', 'signin', 'get started']),
  named(PAGES.dashboard, ['dashboard', 'dashboard home']),
  named(PAGES.profile, ['profile', 'my profile', 'account']),
  named(PAGES.notifications, ['notifications', 'notification', 'alerts', 'inbox']),
  named(PAGES.files, ['files', 'file', 'my files', 'file manager', 'documents']),
  named(PAGES.fileUpload, ['file upload', 'upload', 'upload file', 'upload files', 'upload a file']),
  named(PAGES.fileList, ['file list', 'list files', 'list of files', 'files list', 'list']),
  named(PAGES.fileDownload, ['file download', 'download', 'download file', 'download a file', 'downloads']),
  named(PAGES.fileDelete, ['file delete', 'delete file', 'delete a file', 'delete', 'remove file']),
  named(PAGES.fileStats, ['file stats', 'file statistics', 'stats', 'statistics', 'storage']),
  named(PAGES.filePreview, ['file preview', 'preview', 'preview files', 'preview a file']),
  named(PAGES.speechToText, ['speech to text', 'speech-to-text', 'transcription', 'transcribe', 'speech recognition']),
  named(PAGES.textToSpeech, ['text to speech', 'text-to-speech', 'speech synthesis', 'read aloud']),
  named(PAGES.faceDetection, ['face detection', 'detect faces', 'faces', 'face']),
  named(PAGES.imageAnalysis, [
    'image analysis',
    'analyse image',
    'analyze image',
    'analyse an image',
    'analyze an image',
    'images',
  ]),
  named(PAGES.pushMessage, [
    'push message',
    'send push message',
    'push messages',
    'push notification',
    'admin',
    'broadcast',
  ]),
  named(PAGES.chatbot, ['chatbot', 'chat bot', 'chat', 'assistant', 'ai assistant']),
];
