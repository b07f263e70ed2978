// The sharing feature's public face. Other features open the dialog through lib/share-action.ts
// (`useShareAction()`), which the app layer provides by mounting `ShareHost`.
export { ShareDialog } from './components/share-dialog';
export { ShareHost } from './components/share-host';
