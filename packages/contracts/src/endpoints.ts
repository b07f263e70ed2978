import { accountsEndpoints } from './accounts';
import { activityEndpoints } from './activity';
import { askEndpoints } from './ask';
import { appPasswordsEndpoints } from './app-passwords';
import { adminEndpoints, systemEndpoints } from './admin';
import { aiEndpoints, assistantEndpoints } from './ai';
import { aiModelsEndpoints } from './ai-models';
import { authEndpoints } from './auth';
import { contactEndpoints } from './contact';
import { factorsEndpoints, passkeyEndpoints } from './factors';
import { fileDetailsEndpoints } from './file-details';
import { filesEndpoints } from './files';
import { homeEndpoints } from './home';
import { analysisEndpoints } from './insights';
import { mailEndpoints } from './mail';
import { loginFlowEndpoints } from './nextcloud';
import { notificationsEndpoints } from './notifications';
import { peopleEndpoints } from './people';
import { preferencesEndpoints } from './preferences';
import { searchEndpoints } from './search';
import { linksEndpoints, publicLinksEndpoints, sharingEndpoints } from './sharing';
import { trashEndpoints } from './trash';
import { spacesEndpoints } from './workspaces';

/**
 * The endpoint table (docs/ARCHITECTURE.md, "Endpoints"): each endpoint's method, path and schemas, once, for the
 * server's routes (registered from it by `route()`) and the web's calls. Each resource declares its endpoints beside
 * its schemas (`trashEndpoints` in trash.ts, …); this file assembles them. Not in it: the tus upload protocol (/api/files/tus), the AI compatibility
 * paths (for outside clients), health, metrics and the API docs, and the development identity provider.
 */
export const ENDPOINTS = {
  sharing: sharingEndpoints,
  auth: authEndpoints,
  contact: contactEndpoints,
  ai: aiEndpoints,
  aiModels: aiModelsEndpoints,
  assistant: assistantEndpoints,
  system: systemEndpoints,
  files: filesEndpoints,
  notifications: notificationsEndpoints,
  spaces: spacesEndpoints,
  admin: adminEndpoints,
  links: linksEndpoints,
  publicLinks: publicLinksEndpoints,
  analysis: analysisEndpoints,
  fileDetails: fileDetailsEndpoints,
  people: peopleEndpoints,
  preferences: preferencesEndpoints,
  search: searchEndpoints,
  trash: trashEndpoints,
  activity: activityEndpoints,
  home: homeEndpoints,
  factors: factorsEndpoints,
  passkeys: passkeyEndpoints,
  accounts: accountsEndpoints,
  appPasswords: appPasswordsEndpoints,
  mail: mailEndpoints,
  loginFlow: loginFlowEndpoints,
  ask: askEndpoints,
} as const;
