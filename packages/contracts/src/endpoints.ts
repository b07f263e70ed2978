import {
  AdminUser,
  NotificationHistoryPage,
  NotificationHistoryQuery,
  ScheduledNotification,
  ScheduledNotificationList,
  ScheduledNotificationParams,
  ScheduleNotificationRequest,
  AdminUserList,
  AdminUserParams,
  AdminUserPatch,
  AdminUsersQuery,
  TransferFilesRequest,
  TransferFilesResponse,
  AuditCsvQuery,
  AuditPage,
  AuditQuery,
  InstanceSettings,
  InstanceSettingsPatch,
  SessionsRevoked,
  SystemStatus,
} from './admin';
import {
  AiFileQuery,
  AiStatusResponse,
  ApiKeyIdParams,
  ApiKeyList,
  ApiKeyRecord,
  CreateApiKeyRequest,
  CreatedApiKey,
  FaceDetectionResult,
  ImageAnalysisResult,
  SpeechToTextResult,
} from './ai';
import { AuthConfigResponse, LoginRequest, LogoutResponse, OidcStartQuery } from './auth';
import {
  ContactCreated,
  ContactMessage,
  ContactMessageDeleted,
  ContactMessageIdParams,
  ContactMessageList,
  ContactMessagePatch,
  ContactRequest,
  ContactUnreadCount,
} from './contact';
import { endpoint } from './endpoint';
import {
  Notification,
  NotificationFeed,
  NotificationFeedQuery,
  PublishRequest,
  StreamQuery,
  SubscribeRequest,
  SubscribeResponse,
  SubscriberCount,
  VapidPublicKey,
  WelcomeResponse,
} from './notifications';
import { FileDetails } from './file-details';
import {
  DeleteFileResponse,
  DownloadQuery,
  FileIdParams,
  FileList,
  FileListQuery,
  FileRecord,
  FileUserParams,
  FileVersionList,
  FileVersionParams,
  UploadFileResponse,
  UserFileStats,
} from './files';
import { FileInsights, WorkspaceAnalysisSettings } from './insights';
import {
  CreateFolderRequest,
  CreateWorkspaceRequest,
  DeleteFolderResponse,
  DeleteWorkspaceResponse,
  DirectoryList,
  DirectoryQuery,
  Folder,
  FolderIdParams,
  FolderListing,
  FolderListQuery,
  DeclineInvitationResponse,
  Member,
  MemberList,
  MemberParams,
  RemoveMemberResponse,
  SetMemberRequest,
  SpaceList,
  UpdateFolderRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceDetails,
  WorkspaceIdParams,
  WorkspaceList,
} from './workspaces';
import {
  MergePeopleRequest,
  PeopleList,
  PeopleSettings,
  PeopleSpaceParams,
  PersonFaceParams,
  PersonParams,
  PersonPhotos,
  PersonSummary,
  RemoveFaceResponse,
  RenamePersonRequest,
  SplitPersonRequest,
} from './people';
import { MeResponse } from './me';
import { UserPreferences, UserPreferencesPatch } from './preferences';
import {
  CreateLinkRequest,
  Link,
  LinkIdParams,
  LinkList,
  LinkListQuery,
  LinkTokenParams,
  PublicLink,
  PublicLinkFileParams,
  PublicLinkQuery,
  PublicUploadResponse,
  RevokeLinkResponse,
  RevokeShareResponse,
  SetShareRequest,
  Share,
  SharedWithMe,
  ShareList,
  ShareUserParams,
  ShareWorkspaceParams,
  UnlockLinkRequest,
  UnlockLinkResponse,
  UpdateFileRequest,
  UploadQuery,
} from './sharing';
import { PUBLIC_ENDPOINTS } from './public-endpoints';
import { ArchiveRequest, SearchQuery, SearchResponse } from './search';
import {
  EmptyTrashQuery,
  EmptyTrashResponse,
  PurgeTrashItemResponse,
  RestoreTrashResponse,
  TrashIdParams,
  TrashList,
} from './trash';

/** The share endpoints of a file or a folder (`base`: its shares' path): list, and set or revoke one grant. */
function sharesOf<K extends 'file' | 'folder'>(kind: K, base: string) {
  const endpoints = {
    list: endpoint({ method: 'GET', path: base, params: FolderIdParams, response: ShareList }),
    setUser: endpoint({
      method: 'PUT',
      path: `${base}/:userId`,
      params: ShareUserParams,
      body: SetShareRequest,
      response: Share,
    }),
    revokeUser: endpoint({
      method: 'DELETE',
      path: `${base}/:userId`,
      params: ShareUserParams,
      response: RevokeShareResponse,
    }),
    setWorkspace: endpoint({
      method: 'PUT',
      path: `${base}/workspaces/:workspaceId`,
      params: ShareWorkspaceParams,
      body: SetShareRequest,
      response: Share,
    }),
    revokeWorkspace: endpoint({
      method: 'DELETE',
      path: `${base}/workspaces/:workspaceId`,
      params: ShareWorkspaceParams,
      response: RevokeShareResponse,
    }),
  };
  return { [`${kind}Shares`]: endpoints } as Record<`${K}Shares`, typeof endpoints>;
}

const { assistant, publicLinks } = PUBLIC_ENDPOINTS;

/**
 * The endpoint table (docs/ARCHITECTURE.md, "Endpoints"): each endpoint's method, path and schemas, once, for the
 * server's routes and the web's calls. Not in it: the tus upload protocol (/api/files/tus), the AI compatibility
 * paths (for outside clients), health, metrics and the API docs, and the development identity provider.
 */
export const ENDPOINTS = {
  sharing: {
    ...sharesOf('file', '/api/files/:id/shares'),
    ...sharesOf('folder', '/api/folders/:id/shares'),
    sharedWithMe: endpoint({ method: 'GET', path: '/api/shared-with-me', response: SharedWithMe }),
  },
  auth: {
    config: endpoint({ method: 'GET', path: '/api/auth/config', response: AuthConfigResponse }),
    login: endpoint({ method: 'POST', path: '/api/auth/login', body: LoginRequest, response: MeResponse }),
    logout: endpoint({ method: 'POST', path: '/api/auth/logout', response: LogoutResponse }),
    me: endpoint({ method: 'GET', path: '/api/me', response: MeResponse }),
    firstLogin: endpoint({ method: 'POST', path: '/api/me/first-login', response: MeResponse }),
    /** A browser navigation to the identity provider (answered with a redirect). */
    oidcStart: endpoint({ method: 'GET', path: '/api/auth/oidc/start', query: OidcStartQuery }),
    /** Where the identity provider sends the browser back (redirects onwards). */
    oidcCallback: endpoint({ method: 'GET', path: '/api/auth/oidc/callback' }),
  },
  contact: {
    submit: endpoint({
      method: 'POST',
      path: '/api/contact',
      body: ContactRequest,
      response: ContactCreated,
      status: 201,
    }),
    messages: endpoint({ method: 'GET', path: '/api/contact', response: ContactMessageList }),
    unreadCount: endpoint({ method: 'GET', path: '/api/contact/unread-count', response: ContactUnreadCount }),
    updateMessage: endpoint({
      method: 'PATCH',
      path: '/api/contact/:id',
      params: ContactMessageIdParams,
      body: ContactMessagePatch,
      response: ContactMessage,
    }),
    deleteMessage: endpoint({
      method: 'DELETE',
      path: '/api/contact/:id',
      params: ContactMessageIdParams,
      response: ContactMessageDeleted,
    }),
  },
  ai: {
    /** A WAV file: the body (audio/wav), multipart field `file`, or a stored file (`?fileId=`). */
    speechToText: endpoint({
      method: 'POST',
      path: '/api/ai/speech-to-text',
      query: AiFileQuery,
      response: SpeechToTextResult,
    }),
    /** An image: the body, multipart field `file`, or a stored file (`?fileId=`). */
    faceDetection: endpoint({
      method: 'POST',
      path: '/api/ai/face-detection',
      query: AiFileQuery,
      response: FaceDetectionResult,
    }),
    /** An image: the body, multipart field `file`, or a stored file (`?fileId=`). */
    imageAnalysis: endpoint({
      method: 'POST',
      path: '/api/ai/image-analysis',
      query: AiFileQuery,
      response: ImageAnalysisResult,
    }),
    /**
     * JSON `{ text }` (`TextToSpeechRequest`) or SSML (application/ssml+xml), read by the handler, which takes both;
     * answers audio/mpeg.
     */
    textToSpeech: endpoint({ method: 'POST', path: '/api/ai/text-to-speech' }),
    status: endpoint({ method: 'GET', path: '/api/ai/status', response: AiStatusResponse }),
    createKey: endpoint({
      method: 'POST',
      path: '/api/ai/keys',
      body: CreateApiKeyRequest,
      response: CreatedApiKey,
      status: 201,
    }),
    keys: endpoint({ method: 'GET', path: '/api/ai/keys', response: ApiKeyList }),
    revokeKey: endpoint({ method: 'DELETE', path: '/api/ai/keys/:id', params: ApiKeyIdParams, response: ApiKeyRecord }),
  },
  assistant: {
    /** A short spoken command (body audio/wav); public, rate-limited per client. */
    voiceCommand: endpoint({ ...assistant.voiceCommand, response: SpeechToTextResult }),
  },
  system: {
    status: endpoint({ method: 'GET', path: '/api/admin/system', response: SystemStatus }),
  },
  files: {
    /** Multipart (field `file`); answers text, or JSON with `Accept: application/json`. */
    upload: endpoint({ method: 'POST', path: '/api/files/upload', query: UploadQuery, response: UploadFileResponse }),
    /** The bytes (Range, conditional requests); `?inline=1` for media sources. */
    download: endpoint({ method: 'GET', path: '/api/files/download/:id', params: FileIdParams, query: DownloadQuery }),
    /** A WebP thumbnail (the web adds `?v=` of the file's version to bust caches). */
    thumbnail: endpoint({ method: 'GET', path: '/api/files/:id/thumbnail', params: FileIdParams }),
    versionContent: endpoint({
      method: 'GET',
      path: '/api/files/:id/versions/:versionId/content',
      params: FileVersionParams,
    }),
    /** A zip of files and folders, streamed. */
    archive: endpoint({ method: 'POST', path: '/api/files/archive', body: ArchiveRequest }),
    list: endpoint({
      method: 'GET',
      path: '/api/files/user/:userId',
      params: FileUserParams,
      query: FileListQuery,
      response: FileList,
    }),
    stats: endpoint({
      method: 'GET',
      path: '/api/files/user-stats/:userId',
      params: FileUserParams,
      response: UserFileStats,
    }),
    versions: endpoint({
      method: 'GET',
      path: '/api/files/:id/versions',
      params: FileIdParams,
      response: FileVersionList,
    }),
    restoreVersion: endpoint({
      method: 'POST',
      path: '/api/files/:id/versions/:versionId/restore',
      params: FileVersionParams,
      response: FileRecord,
    }),
    file: endpoint({ method: 'GET', path: '/api/files/:id', params: FileIdParams, response: FileRecord }),
    update: endpoint({
      method: 'PATCH',
      path: '/api/files/:id',
      params: FileIdParams,
      body: UpdateFileRequest,
      response: FileRecord,
    }),
    delete: endpoint({
      method: 'DELETE',
      path: '/api/files/user/:id',
      params: FileIdParams,
      response: DeleteFileResponse,
    }),
  },
  notifications: {
    subscribe: endpoint({
      method: 'POST',
      path: '/public/api/notifications/subscribe',
      body: SubscribeRequest,
      response: SubscribeResponse,
    }),
    publish: endpoint({
      method: 'POST',
      path: '/public/api/notifications',
      body: PublishRequest,
      response: Notification,
    }),
    feed: endpoint({
      method: 'GET',
      path: '/public/api/notifications',
      query: NotificationFeedQuery,
      response: NotificationFeed,
    }),
    subscriberCount: endpoint({
      method: 'GET',
      path: '/public/api/notifications/subscribers/count',
      response: SubscriberCount,
    }),
    welcome: endpoint({ method: 'POST', path: '/public/api/notifications/welcome', response: WelcomeResponse }),
    vapidPublicKey: endpoint({
      method: 'GET',
      path: '/public/api/notifications/vapid-public-key',
      response: VapidPublicKey,
    }),
    /** Server-Sent Events, one per notification; resumes after `Last-Event-ID` (or `?lastEventId=`). */
    stream: endpoint({ method: 'GET', path: '/public/api/notifications/stream', query: StreamQuery }),
    history: endpoint({
      method: 'GET',
      path: '/api/admin/notifications',
      query: NotificationHistoryQuery,
      response: NotificationHistoryPage,
    }),
    schedule: endpoint({
      method: 'POST',
      path: '/api/admin/notifications/scheduled',
      body: ScheduleNotificationRequest,
      response: ScheduledNotification,
      status: 201,
    }),
    scheduled: endpoint({
      method: 'GET',
      path: '/api/admin/notifications/scheduled',
      response: ScheduledNotificationList,
    }),
    cancelScheduled: endpoint({
      method: 'DELETE',
      path: '/api/admin/notifications/scheduled/:id',
      params: ScheduledNotificationParams,
      response: ScheduledNotification,
    }),
  },
  spaces: {
    spaces: endpoint({ method: 'GET', path: '/api/spaces', response: SpaceList }),
    directory: endpoint({ method: 'GET', path: '/api/users', query: DirectoryQuery, response: DirectoryList }),
    createWorkspace: endpoint({
      method: 'POST',
      path: '/api/workspaces',
      body: CreateWorkspaceRequest,
      response: Workspace,
      status: 201,
    }),
    workspaces: endpoint({ method: 'GET', path: '/api/workspaces', response: WorkspaceList }),
    workspace: endpoint({
      method: 'GET',
      path: '/api/workspaces/:id',
      params: WorkspaceIdParams,
      response: WorkspaceDetails,
    }),
    renameWorkspace: endpoint({
      method: 'PATCH',
      path: '/api/workspaces/:id',
      params: WorkspaceIdParams,
      body: UpdateWorkspaceRequest,
      response: WorkspaceDetails,
    }),
    deleteWorkspace: endpoint({
      method: 'DELETE',
      path: '/api/workspaces/:id',
      params: WorkspaceIdParams,
      response: DeleteWorkspaceResponse,
    }),
    members: endpoint({
      method: 'GET',
      path: '/api/workspaces/:id/members',
      params: WorkspaceIdParams,
      response: MemberList,
    }),
    setMember: endpoint({
      method: 'PUT',
      path: '/api/workspaces/:id/members/:userId',
      params: MemberParams,
      body: SetMemberRequest,
      response: Member,
    }),
    removeMember: endpoint({
      method: 'DELETE',
      path: '/api/workspaces/:id/members/:userId',
      params: MemberParams,
      response: RemoveMemberResponse,
    }),
    /** The invited person accepts: a member from now on (404 without an invitation). */
    acceptInvitation: endpoint({
      method: 'POST',
      path: '/api/workspaces/:id/membership/accept',
      params: WorkspaceIdParams,
      response: Workspace,
    }),
    /** The invited person declines: the invitation is gone (404 without one). */
    declineInvitation: endpoint({
      method: 'POST',
      path: '/api/workspaces/:id/membership/decline',
      params: WorkspaceIdParams,
      response: DeclineInvitationResponse,
    }),
    createFolder: endpoint({
      method: 'POST',
      path: '/api/folders',
      body: CreateFolderRequest,
      response: Folder,
      status: 201,
    }),
    folder: endpoint({
      method: 'GET',
      path: '/api/folders/:id',
      params: FolderIdParams,
      query: FolderListQuery,
      response: FolderListing,
    }),
    updateFolder: endpoint({
      method: 'PATCH',
      path: '/api/folders/:id',
      params: FolderIdParams,
      body: UpdateFolderRequest,
      response: Folder,
    }),
    deleteFolder: endpoint({
      method: 'DELETE',
      path: '/api/folders/:id',
      params: FolderIdParams,
      response: DeleteFolderResponse,
    }),
  },
  admin: {
    /** The next page's cursor is in the `X-Next-Cursor` header. */
    users: endpoint({ method: 'GET', path: '/api/admin/users', query: AdminUsersQuery, response: AdminUserList }),
    updateUser: endpoint({
      method: 'PATCH',
      path: '/api/admin/users/:userId',
      params: AdminUserParams,
      body: AdminUserPatch,
      response: AdminUser,
    }),
    revokeSessions: endpoint({
      method: 'DELETE',
      path: '/api/admin/users/:userId/sessions',
      params: AdminUserParams,
      response: SessionsRevoked,
    }),
    transferFiles: endpoint({
      method: 'POST',
      path: '/api/admin/users/:userId/transfer',
      params: AdminUserParams,
      body: TransferFilesRequest,
      response: TransferFilesResponse,
    }),
    audit: endpoint({ method: 'GET', path: '/api/admin/audit', query: AuditQuery, response: AuditPage }),
    /** Every matching entry as CSV, streamed (an attachment). */
    auditCsv: endpoint({ method: 'GET', path: '/api/admin/audit.csv', query: AuditCsvQuery }),
    settings: endpoint({ method: 'GET', path: '/api/admin/settings', response: InstanceSettings }),
    updateSettings: endpoint({
      method: 'PUT',
      path: '/api/admin/settings',
      body: InstanceSettingsPatch,
      response: InstanceSettings,
    }),
  },
  links: {
    create: endpoint({ method: 'POST', path: '/api/links', body: CreateLinkRequest, response: Link, status: 201 }),
    list: endpoint({ method: 'GET', path: '/api/links', query: LinkListQuery, response: LinkList }),
    revoke: endpoint({ method: 'DELETE', path: '/api/links/:id', params: LinkIdParams, response: RevokeLinkResponse }),
  },
  /** A link's bearer's routes (no sign-in; the link's page calls them zod-free, from `PUBLIC_ENDPOINTS`). */
  publicLinks: {
    link: endpoint({ ...publicLinks.link, params: LinkTokenParams, query: PublicLinkQuery, response: PublicLink }),
    /** A file link's bytes (Range, ETag; `?inline=1` for previews). */
    download: endpoint({ ...publicLinks.download, params: LinkTokenParams, query: DownloadQuery }),
    /** A file below a folder link's folder. */
    fileDownload: endpoint({ ...publicLinks.fileDownload, params: PublicLinkFileParams, query: DownloadQuery }),
    thumbnail: endpoint({ ...publicLinks.thumbnail, params: LinkTokenParams }),
    fileThumbnail: endpoint({ ...publicLinks.fileThumbnail, params: PublicLinkFileParams }),
    /** A folder link's whole folder as a zip, streamed. */
    zip: endpoint({ ...publicLinks.zip, params: LinkTokenParams }),
    unlock: endpoint({
      ...publicLinks.unlock,
      params: LinkTokenParams,
      body: UnlockLinkRequest,
      response: UnlockLinkResponse,
    }),
    /** Multipart (field `file`), into a file-drop link's folder. */
    upload: endpoint({ ...publicLinks.upload, params: LinkTokenParams, response: PublicUploadResponse, status: 201 }),
  },
  analysis: {
    insights: endpoint({
      method: 'GET',
      path: '/api/files/:id/insights',
      params: FileIdParams,
      response: FileInsights,
    }),
    setting: endpoint({
      method: 'GET',
      path: '/api/workspaces/:id/analysis',
      params: WorkspaceIdParams,
      response: WorkspaceAnalysisSettings,
    }),
    changeSetting: endpoint({
      method: 'PUT',
      path: '/api/workspaces/:id/analysis',
      params: WorkspaceIdParams,
      body: WorkspaceAnalysisSettings,
      response: WorkspaceAnalysisSettings,
    }),
  },
  fileDetails: {
    details: endpoint({ method: 'GET', path: '/api/files/:id/details', params: FileIdParams, response: FileDetails }),
  },
  people: {
    list: endpoint({
      method: 'GET',
      path: '/api/spaces/:spaceId/people',
      params: PeopleSpaceParams,
      response: PeopleList,
    }),
    settings: endpoint({
      method: 'PUT',
      path: '/api/spaces/:spaceId/people/settings',
      params: PeopleSpaceParams,
      body: PeopleSettings,
      response: PeopleSettings,
    }),
    photos: endpoint({
      method: 'GET',
      path: '/api/spaces/:spaceId/people/:personId',
      params: PersonParams,
      response: PersonPhotos,
    }),
    rename: endpoint({
      method: 'PATCH',
      path: '/api/spaces/:spaceId/people/:personId',
      params: PersonParams,
      body: RenamePersonRequest,
      response: PersonSummary,
    }),
    merge: endpoint({
      method: 'POST',
      path: '/api/spaces/:spaceId/people/:personId/merge',
      params: PersonParams,
      body: MergePeopleRequest,
      response: PersonSummary,
    }),
    split: endpoint({
      method: 'POST',
      path: '/api/spaces/:spaceId/people/:personId/split',
      params: PersonParams,
      body: SplitPersonRequest,
      response: PersonSummary,
      status: 201,
    }),
    removeFace: endpoint({
      method: 'DELETE',
      path: '/api/spaces/:spaceId/people/:personId/faces/:faceId',
      params: PersonFaceParams,
      response: RemoveFaceResponse,
    }),
  },
  preferences: {
    get: endpoint({ method: 'GET', path: '/api/me/preferences', response: UserPreferences }),
    update: endpoint({
      method: 'PUT',
      path: '/api/me/preferences',
      body: UserPreferencesPatch,
      response: UserPreferences,
    }),
  },
  search: {
    search: endpoint({ method: 'GET', path: '/api/search', query: SearchQuery, response: SearchResponse }),
  },
  trash: {
    list: endpoint({ method: 'GET', path: '/api/trash', response: TrashList }),
    restore: endpoint({
      method: 'POST',
      path: '/api/trash/:id/restore',
      params: TrashIdParams,
      response: RestoreTrashResponse,
    }),
    purge: endpoint({
      method: 'DELETE',
      path: '/api/trash/:id',
      params: TrashIdParams,
      response: PurgeTrashItemResponse,
    }),
    empty: endpoint({ method: 'DELETE', path: '/api/trash', query: EmptyTrashQuery, response: EmptyTrashResponse }),
  },
} as const;
