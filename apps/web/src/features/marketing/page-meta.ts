/** Titles and meta descriptions of the public pages: set by each page, and written into the prerendered HTML. */
export const PAGE_META = {
  '/': {
    title: '',
    description:
      'Atrium is a self-hostable AI workspace for teams: file storage, speech to text, text to speech, face detection, image analysis, push notifications and a voice assistant.',
  },
  '/about': {
    title: 'About',
    description:
      'Why we built Atrium: a private, self-hostable AI workspace that gives every team speech, vision and file tools without a cloud account.',
  },
  '/features': {
    title: 'Features',
    description:
      'Atrium features: file storage with previews and stats, team workspaces with sharing and public links, speech to text, text to speech, face detection, image analysis, push notifications and a chat and voice assistant.',
  },
  '/testimonials': {
    title: 'Reviews',
    description: 'What teams say about Atrium, the self-hostable AI workspace: three reviews from our customers.',
  },
  '/pricing': {
    title: 'Pricing',
    description:
      'Atrium pricing: every plan is a self-hosted install with every feature. Free $0/mo with community support; Pro $19/mo with priority support; Enterprise custom. Projects are coming soon.',
  },
  '/contact': {
    title: 'Contact',
    description:
      'Contact the Atrium team: questions about plans, self-hosting or Enterprise terms. Messages are stored for the administrators.',
  },
} as const;
