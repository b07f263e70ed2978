import type { Migration } from 'kysely/migration';
import { m0001Init } from './0001-init';
import { m0002Identity } from './0002-identity';
import { m0003Files } from './0003-files';
import { m0005Ai } from './0005-ai';
import { m0004Notifications } from './0004-notifications';
import { m0006Contact } from './0006-contact';
import { m0007RateLimits } from './0007-rate-limits';
import { m0008FirstLogin } from './0008-first-login';
import { m0009FileNameKey } from './0009-file-name-key';
import { m0010PushFailures } from './0010-push-failures';
import { m0011JobLeases } from './0011-job-leases';
import { m0012Workspaces } from './0012-workspaces';
import { m0013PlaceFiles } from './0013-place-files';
import { m0014Admin } from './0014-admin';
import { m0015ContactStatus } from './0015-contact-status';
import { m0016TrashVersions } from './0016-trash-versions';
import { m0017Search } from './0017-search';
import { m0018Analysis } from './0018-analysis';
import { m0019NotificationHistory } from './0019-notification-history';
import { m0020People } from './0020-people';
import { m0021UserPreferences } from './0021-user-preferences';
import { m0022AuditSubject } from './0022-audit-subject';
import { m0023SearchRecent } from './0023-search-recent';
import { m0024SearchScope } from './0024-search-scope';
import { m0025LinkBytes } from './0025-link-bytes';
import { m0026MembershipConsent } from './0026-membership-consent';
import { m0027Jobs } from './0027-jobs';
import { m0028NotificationReads } from './0028-notification-reads';
import { m0029Stars } from './0029-stars';
import { m0030EndedSessions } from './0030-ended-sessions';
import { m0031LinkArrivals } from './0031-link-arrivals';
import { m0032Accounts } from './0032-accounts';
import { m0033SecondFactors } from './0033-second-factors';
import { m0034Mail } from './0034-mail';
import { m0035AppPasswords } from './0035-app-passwords';
import { m0036Dav } from './0036-dav';
import { m0038Nextcloud } from './0038-nextcloud';
import { m0039FileMtime } from './0039-file-mtime';
import { m0040AskPassages } from './0040-ask-passages';
import { m0041AiModels } from './0041-ai-models';
import { m0042PassageTerms } from './0042-passage-terms';
import { m0043FolderFileOrder } from './0043-folder-file-order';
import { m0044PassageVocab } from './0044-passage-vocab';
import { m0045PassagesGinDirect } from './0045-passages-gin-direct';
import { m0046PassagesWorkspace } from './0046-passages-workspace';
import { m0047VectorCells } from './0047-vector-cells';
import { m0048PassagesSpace } from './0048-passages-space';

/**
 * Every migration, in order. Names sort lexicographically; never rename or
 * edit one that has shipped: add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001-init': m0001Init,
  '0002-identity': m0002Identity,
  '0003-files': m0003Files,
  '0005-ai': m0005Ai,
  '0004-notifications': m0004Notifications,
  '0006-contact': m0006Contact,
  '0007-rate-limits': m0007RateLimits,
  '0008-first-login': m0008FirstLogin,
  '0009-file-name-key': m0009FileNameKey,
  '0010-push-failures': m0010PushFailures,
  '0011-job-leases': m0011JobLeases,
  '0012-workspaces': m0012Workspaces,
  '0013-place-files': m0013PlaceFiles,
  '0014-admin': m0014Admin,
  '0015-contact-status': m0015ContactStatus,
  '0016-trash-versions': m0016TrashVersions,
  '0017-search': m0017Search,
  '0018-analysis': m0018Analysis,
  '0019-notification-history': m0019NotificationHistory,
  '0020-people': m0020People,
  '0021-user-preferences': m0021UserPreferences,
  '0022-audit-subject': m0022AuditSubject,
  '0023-search-recent': m0023SearchRecent,
  '0024-search-scope': m0024SearchScope,
  '0025-link-bytes': m0025LinkBytes,
  '0026-membership-consent': m0026MembershipConsent,
  '0027-jobs': m0027Jobs,
  '0028-notification-reads': m0028NotificationReads,
  '0029-stars': m0029Stars,
  '0030-ended-sessions': m0030EndedSessions,
  '0031-link-arrivals': m0031LinkArrivals,
  '0032-accounts': m0032Accounts,
  '0033-second-factors': m0033SecondFactors,
  '0034-mail': m0034Mail,
  '0035-app-passwords': m0035AppPasswords,
  '0036-dav': m0036Dav,
  '0038-nextcloud': m0038Nextcloud,
  '0039-file-mtime': m0039FileMtime,
  '0040-ask-passages': m0040AskPassages,
  '0041-ai-models': m0041AiModels,
  '0042-passage-terms': m0042PassageTerms,
  '0043-folder-file-order': m0043FolderFileOrder,
  '0044-passage-vocab': m0044PassageVocab,
  '0045-passages-gin-direct': m0045PassagesGinDirect,
  '0046-passages-workspace': m0046PassagesWorkspace,
  '0047-vector-cells': m0047VectorCells,
  '0048-passages-space': m0048PassagesSpace,
};
