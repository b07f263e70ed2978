/** A page the assistant can open, with the names people use for it. */
export interface NamedRoute {
  path: string;
  /** Shown in replies, e.g. "Opening Pricing." */
  label: string;
  /** Lower-case names and aliases, matched as whole words. */
  names: readonly string[];
}

/** Every route of the product (docs/PRODUCT.md#web-routes), by name. */
export const NAMED_ROUTES: readonly NamedRoute[] = [
  { path: '/', label: 'Home', names: ['home', 'home page', 'homepage', 'landing page', 'start page'] },
  { path: '/about', label: 'About', names: ['about', 'about us', 'about page'] },
  { path: '/features', label: 'Features', names: ['features', 'feature list', 'features page'] },
  { path: '/pricing', label: 'Pricing', names: ['pricing', 'prices', 'price', 'plans', 'pricing page'] },
  { path: '/contact', label: 'Contact', names: ['contact', 'contact us', 'contact page'] },
  {
    path: '/testimonials',
    label: 'Reviews',
    names: ['testimonials', 'reviews', 'review', 'testimonial'],
  },
  { path: '/login', label: 'Login', names: ['login', 'log in', 'sign in', 'signin', 'get started'] },
  { path: '/dashboard', label: 'Dashboard', names: ['dashboard', 'dashboard home'] },
  { path: '/dashboard/profile', label: 'Profile', names: ['profile', 'my profile', 'account'] },
  {
    path: '/dashboard/notifications',
    label: 'Notifications',
    names: ['notifications', 'notification', 'alerts', 'inbox'],
  },
  { path: '/dashboard/files', label: 'Files', names: ['files', 'file', 'my files', 'file manager', 'documents'] },
  {
    path: '/dashboard/file-upload',
    label: 'File Upload',
    names: ['file upload', 'upload', 'upload file', 'upload files', 'upload a file'],
  },
  {
    path: '/dashboard/file-list',
    label: 'File List',
    names: ['file list', 'list files', 'list of files', 'files list', 'list'],
  },
  {
    path: '/dashboard/file-download',
    label: 'File Download',
    names: ['file download', 'download', 'download file', 'download a file', 'downloads'],
  },
  {
    path: '/dashboard/file-delete',
    label: 'File Delete',
    names: ['file delete', 'delete file', 'delete a file', 'delete', 'remove file'],
  },
  {
    path: '/dashboard/file-stats',
    label: 'File Stats',
    names: ['file stats', 'file statistics', 'stats', 'statistics', 'storage'],
  },
  {
    path: '/dashboard/file-preview',
    label: 'File Preview',
    names: ['file preview', 'preview', 'preview files', 'preview a file'],
  },
  {
    path: '/dashboard/speech-to-text',
    label: 'Speech to Text',
    names: ['speech to text', 'speech-to-text', 'transcription', 'transcribe', 'speech recognition'],
  },
  {
    path: '/dashboard/text-to-speech',
    label: 'Text to Speech',
    names: ['text to speech', 'text-to-speech', 'speech synthesis', 'read aloud'],
  },
  {
    path: '/dashboard/face-detection',
    label: 'Face Detection',
    names: ['face detection', 'detect faces', 'faces', 'face'],
  },
  {
    path: '/dashboard/image-analysis',
    label: 'Image Analysis',
    names: ['image analysis', 'analyse image', 'analyze image', 'analyse an image', 'analyze an image', 'images'],
  },
  {
    path: '/dashboard/admin/push-message',
    label: 'Send Push Message',
    names: ['push message', 'send push message', 'push messages', 'push notification', 'admin', 'broadcast'],
  },
  {
    path: '/dashboard/chatbot',
    label: 'AI Assistant',
    names: ['chatbot', 'chat bot', 'chat', 'assistant', 'ai assistant'],
  },
];
