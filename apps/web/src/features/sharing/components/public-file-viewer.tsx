import { formatBytes } from '@atrium/contracts/format-bytes';
import { Download } from 'lucide-react';
import { ViewerContent } from '../../../components/file-viewer/viewer-content';
import {
  ToolLabel,
  ViewerFrame,
  ViewerUnavailable,
  viewerToolClass,
} from '../../../components/file-viewer/viewer-frame';
import { neighbours } from '../../../lib/viewer-list';

/** A file a public link shows: its addresses (inline for the viewer, attachment for Download) and what it is. */
export interface PublicViewerFile {
  id: string;
  fileName: string;
  size: number;
  contentType: string;
  src: string;
  downloadHref: string;
}

export interface PublicFileViewerProps {
  /** The files of the link the viewer steps through (one for a file link). */
  files: readonly PublicViewerFile[];
  /** The one shown; not among `files`: "This file is not available". */
  fileId: string;
  onClose: () => void;
  onOpen: (fileId: string) => void;
}

/**
 * The read-only file viewer of the public link page (docs/PRODUCT.md#file-viewer): the same frame and content as
 * the signed-in viewer, Previous / Next through the folder shown, Download; no Share, Versions, Details or insights,
 * and no sign-in. Every view reads the bytes, so it counts as a download of the link.
 */
export function PublicFileViewer({ files, fileId, onClose, onOpen }: PublicFileViewerProps) {
  const file = files.find((candidate) => candidate.id === fileId);
  const steps = neighbours(
    files.map((item) => ({ id: item.id, name: item.fileName })),
    fileId,
  );
  const onPrevious = steps.previous ? () => onOpen(steps.previous?.id ?? '') : undefined;
  const onNext = steps.next ? () => onOpen(steps.next?.id ?? '') : undefined;
  if (!file)
    return (
      <ViewerFrame title="File viewer" onClose={onClose}>
        <ViewerUnavailable />
      </ViewerFrame>
    );
  return (
    <ViewerFrame
      title={file.fileName}
      subtitle={`${formatBytes(file.size)} · ${file.contentType}`}
      position={steps.position}
      onClose={onClose}
      onPrevious={onPrevious}
      onNext={onNext}
      toolbar={
        <a href={file.downloadHref} download={file.fileName} className={viewerToolClass}>
          <Download aria-hidden="true" className="size-4" />
          <ToolLabel>Download</ToolLabel>
        </a>
      }
    >
      <ViewerContent
        key={file.id}
        src={file.src}
        downloadHref={file.downloadHref}
        name={file.fileName}
        size={file.size}
        contentType={file.contentType}
      />
    </ViewerFrame>
  );
}
