import { ENDPOINTS } from '@atrium/contracts';
import { endpointPath } from '@atrium/contracts/endpoint';

// Addresses of a file's bytes for links, media sources and images (the endpoint table's byte endpoints): one place
// for every screen that shows or saves a file.
const { files } = ENDPOINTS;

/** A file's bytes: saved (attachment), or `inline` as a media source or to open in a tab. */
export const downloadUrl = (id: string, inline = false) =>
  endpointPath(files.download, { id }, inline ? { inline: 1 } : {});

/** A file's thumbnail; `version` (its upload date, say) makes a new version's thumbnail a new address. */
export const thumbnailUrl = (id: string, version?: string) => endpointPath(files.thumbnail, { id }, { v: version });

/** The bytes of an older version of a file. */
export const versionUrl = (id: string, versionId: string) => endpointPath(files.versionContent, { id, versionId });
