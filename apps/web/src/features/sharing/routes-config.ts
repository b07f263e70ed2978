/**
 * Where "Open" on a shared folder leads: the file browser's folder route. The one place to change when the file
 * browser's route is settled.
 */
export const folderRoute = (folderId: string) => `/dashboard/folders/${encodeURIComponent(folderId)}`;

/** A shared file's download (the private download route: the policies let share recipients through). */
export const fileDownloadUrl = (fileId: string) => `/api/files/download/${encodeURIComponent(fileId)}`;
