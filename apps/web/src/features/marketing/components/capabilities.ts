import { AudioLines, Bell, Bot, FolderOpen, ScanFace, ScanSearch, Users, Volume2, type LucideIcon } from 'lucide-react';

export interface Capability {
  icon: LucideIcon;
  title: string;
  summary: string;
  points: string[];
}

/** What the product does (docs/PRODUCT.md#what-atrium-is), as the public pages present it. */
export const CAPABILITIES: Capability[] = [
  {
    icon: FolderOpen,
    title: 'File storage',
    summary: 'Upload, preview, download and delete your files, with per-user quotas and live statistics.',
    points: [
      'Large uploads that survive flaky connections',
      'Previews for images, audio, video and PDF',
      'Storage use at a glance',
    ],
  },
  {
    icon: Users,
    title: 'Workspaces and sharing',
    summary: 'Give each team or project a workspace with its own members, folders, files and quota.',
    points: [
      'Owners, editors and viewers',
      'Share a file or folder with a person or a whole workspace',
      'Public links with expiry, password and download limit',
    ],
  },
  {
    icon: AudioLines,
    title: 'Speech to text',
    summary: 'Turn meeting recordings and voice notes into text, processed on your own server.',
    points: ['WAV audio at 16 kHz', 'No audio leaves your machine', 'Results in seconds'],
  },
  {
    icon: Volume2,
    title: 'Text to speech',
    summary: 'Give announcements and documents a voice, ready to download as MP3.',
    points: ['Natural US English voice', 'MP3 output you can keep', 'Works offline'],
  },
  {
    icon: ScanFace,
    title: 'Face detection',
    summary: 'Find faces in photos with age, gender and emotion estimates.',
    points: ['PNG and JPG images', 'Boxes drawn on the picture', 'Nothing sent to a cloud'],
  },
  {
    icon: ScanSearch,
    title: 'Image analysis',
    summary: 'Describe pictures, detect objects and read their colours automatically.',
    points: ['Categories and tags', 'Dominant colours', 'Raw JSON for developers'],
  },
  {
    icon: Bell,
    title: 'Push notifications',
    summary: 'Reach the whole team instantly with browser push and live in-app alerts.',
    points: ['Admin broadcasts', 'Unread badges', 'Delivered even when the tab is closed'],
  },
  {
    icon: Bot,
    title: 'Chat and voice assistant',
    summary: 'Ask the assistant to open any page by typing or by voice.',
    points: ['Quick commands', 'Hands-free navigation', 'Works without a cloud speech service'],
  },
];
