import { fileKindOf } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { folderHref } from '@atrium/contracts/pages';
import { Download, FolderOpen, History, Info, Share2 } from 'lucide-react';
import { Link } from 'react-router';
import { useRef, useState, type ReactNode } from 'react';
import {
  ToolLabel,
  ViewerFrame,
  ViewerUnavailable,
  viewerToolClass,
} from '../../../components/file-viewer/viewer-frame';
import { ViewerContent } from '../../../components/file-viewer/viewer-content';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-error';
import { downloadUrl } from '../../../lib/file-urls';
import { useShareAction } from '../../../lib/share-action';
import type { ViewerPlace } from '../../../lib/viewer-link';
import { neighbours, viewerListFor } from '../../../lib/viewer-list';
import { useFolderFiles, useViewerFile } from '../api/viewer-api';
import { ViewerFaceBoxes, ViewerInsights } from './viewer-insights';
import { ViewerSummary } from './viewer-summary';

/** A file as the dialogs the viewer opens name it (the spaces feature's `EntryTarget`). */
export interface ViewerTarget {
  kind: 'file';
  id: string;
  name: string;
}

/** What the app layer lends the viewer from other features: their dialogs, and the Star button's place. */
export interface ViewerSlots {
  /** The versions dialog of a file. */
  versions?: (props: { target: ViewerTarget; canWrite: boolean; onClose: () => void }) => ReactNode;
  /** The details panel of a file. */
  details?: (props: { target: ViewerTarget; onClose: () => void }) => ReactNode;
  /** The Star button of the toolbar (docs/PRODUCT.md#starred-and-recent); key `s` presses it. */
  star?: (props: { fileId: string; name: string }) => ReactNode;
}

export interface FileViewerProps extends ViewerSlots {
  fileId: string;
  /** The page or moment to open at (a citation's `&page=` / `&t=`). */
  place?: ViewerPlace;
  onClose: () => void;
  /** Opens the viewer on another file (Previous / Next). */
  onOpen: (fileId: string) => void;
}

/**
 * The in-app file viewer (docs/PRODUCT.md#file-viewer) for a signed-in reader: the file by its type, its insights
 * beside it, Previous / Next through the list it was opened from or its folder, and Download, Share, Versions and
 * Details in the toolbar. A file that does not exist or is not the reader's to read says so.
 */
export function FileViewer({ fileId, place, onClose, onOpen, versions, details, star }: FileViewerProps) {
  const file = useViewerFile(fileId);
  const share = useShareAction();
  const media = useRef<HTMLMediaElement | null>(null);
  const [showFaces, setShowFaces] = useState(true);
  const [dialog, setDialog] = useState<'versions' | 'details' | null>(null);
  const list = viewerListFor(fileId);
  const folder = useFolderFiles(list ? null : (file.data?.location.folderId ?? null));
  const steps = neighbours(list ?? folder.data ?? [], fileId);
  const goPrevious = steps.previous ? () => onOpen(steps.previous?.id ?? '') : undefined;
  const goNext = steps.next ? () => onOpen(steps.next?.id ?? '') : undefined;

  if (file.isPending || file.isError) {
    const unavailable = file.isError && isApiError(file.error) && [400, 403, 404, 410].includes(file.error.status);
    return (
      <ViewerFrame
        title={file.isPending ? 'Opening…' : 'File viewer'}
        onClose={onClose}
        onPrevious={goPrevious}
        onNext={goNext}
      >
        {file.isPending ? (
          <Spinner label="Opening the file…" />
        ) : (
          <ViewerUnavailable message={unavailable ? 'This file is not available' : 'Could not open this file'} />
        )}
      </ViewerFrame>
    );
  }

  const data = file.data;
  const target: ViewerTarget = { kind: 'file', id: data.id, name: data.name };
  const canWrite = data.yourRole !== 'viewer';
  const where = [data.location.spaceName, ...data.location.path.slice(1).map((crumb) => crumb.name)].join(' › ');
  const isImage = data.contentType.startsWith('image/');
  const kind = fileKindOf(data.contentType);
  const toolbar = (
    <>
      {star?.({ fileId: data.id, name: data.name })}
      <a href={downloadUrl(data.id)} download={data.name} className={viewerToolClass}>
        <Download aria-hidden="true" className="size-4" />
        <ToolLabel>Download</ToolLabel>
      </a>
      {share && canWrite && (
        <button
          type="button"
          className={viewerToolClass}
          onClick={() => share({ kind: 'file', id: data.id, name: data.name })}
        >
          <Share2 aria-hidden="true" className="size-4" />
          <ToolLabel>Share</ToolLabel>
        </button>
      )}
      {versions && (
        <button type="button" className={viewerToolClass} onClick={() => setDialog('versions')}>
          <History aria-hidden="true" className="size-4" />
          <ToolLabel>Versions</ToolLabel>
        </button>
      )}
      {details && (
        <button type="button" className={viewerToolClass} onClick={() => setDialog('details')}>
          <Info aria-hidden="true" className="size-4" />
          <ToolLabel>Details</ToolLabel>
        </button>
      )}
    </>
  );
  return (
    <ViewerFrame
      title={data.name}
      subtitle={`${formatBytes(data.size)} · ${data.contentType}`}
      position={steps.position}
      onClose={onClose}
      onPrevious={goPrevious}
      onNext={goNext}
      toolbar={toolbar}
      aside={
        <div className="space-y-4">
          {data.location.folderId && (
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
              <span className="min-w-0 break-words">{where}</span>
              <Link
                to={folderHref(
                  data.location.spaceKind === 'workspace' ? data.location.spaceId : null,
                  data.location.folderId,
                )}
                className="inline-flex items-center gap-1 rounded font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <FolderOpen aria-hidden="true" className="size-4" /> Go to folder
              </Link>
            </p>
          )}
          {(kind === 'document' || kind === 'audio' || kind === 'video') && (
            <ViewerSummary key={data.id} fileId={data.id} />
          )}
          <ViewerInsights fileId={data.id} media={media} showFaces={showFaces} onShowFaces={setShowFaces} />
        </div>
      }
    >
      <ViewerContent
        key={data.id}
        src={downloadUrl(data.id, true)}
        downloadHref={downloadUrl(data.id)}
        name={data.name}
        size={data.size}
        contentType={data.contentType}
        mediaRef={media}
        {...(place ? { place } : {})}
        overlay={isImage && showFaces ? <ViewerFaceBoxes fileId={data.id} /> : undefined}
      />
      {dialog === 'versions' && versions?.({ target, canWrite, onClose: () => setDialog(null) })}
      {dialog === 'details' && details?.({ target, onClose: () => setDialog(null) })}
    </ViewerFrame>
  );
}
