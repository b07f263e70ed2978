// The sharing feature's public face. Every feature opens the share dialog one way: `useShareAction()` of
// lib/share-action.ts, which the app layer provides by mounting `ShareHost` (it shows the dialog).
export { ShareHost } from './components/share-host';
