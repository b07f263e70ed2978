import type { FileRecord } from '@atrium/contracts';
import { Download, Share2, Trash2 } from 'lucide-react';
import { Menu, type MenuItem } from '../../../components/ui/menu';
import { useShareAction } from '../../../lib/share-action';
import { downloadUrl } from '../../../lib/file-urls';

/** A file's actions (Download, Share, Delete) behind one menu button; keyboard handling comes from `Menu`. */
export function FileRowMenu({ file, onDelete }: { file: FileRecord; onDelete?: (file: FileRecord) => void }) {
  const share = useShareAction();
  const items: MenuItem[] = [
    { label: 'Download', icon: Download, href: downloadUrl(file.id), download: file.fileName },
  ];
  if (share) {
    items.push({
      label: 'Share',
      icon: Share2,
      onSelect: () => share({ kind: 'file', id: file.id, name: file.fileName }),
    });
  }
  if (onDelete) items.push({ label: 'Delete', icon: Trash2, danger: true, onSelect: () => onDelete(file) });
  return <Menu label={`Actions for ${file.fileName}`} items={items} />;
}
