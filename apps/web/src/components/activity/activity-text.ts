import type { ActivityEntry, ActivityType } from '@atrium/contracts';

/** The type filter's choices, as the feed names them (docs/PRODUCT.md#activity). */
export const ACTIVITY_TYPE_LABELS: Record<ActivityType, string> = {
  uploaded: 'Uploads',
  replaced: 'New versions',
  renamed: 'Renames',
  moved: 'Moves',
  shared: 'Sharing',
  deleted: 'Deletions',
  restored: 'Restores',
};

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** What an entry says after the actor's name, e.g. "uploaded brief.txt" or "renamed a.txt to b.txt". */
export function activityVerb(entry: ActivityEntry): string {
  const name = entry.item.name;
  const details = entry.details ?? {};
  switch (entry.action) {
    case 'file.uploaded':
      return `uploaded ${name}`;
    case 'file.version_added':
      return `uploaded a new version of ${name}`;
    case 'file.version_restored':
      return `restored an older version of ${name}`;
    case 'file.renamed':
    case 'folder.renamed': {
      const from = text(details.from);
      const to = text(details.to) ?? name;
      return from ? `renamed ${from} to ${to}` : `renamed ${name}`;
    }
    case 'file.moved':
    case 'folder.moved': {
      const to = details.to as { name?: unknown } | undefined;
      const where = text(to?.name);
      return where ? `moved ${name} to ${where}` : `moved ${name}`;
    }
    case 'share.created':
      return `shared ${name}`;
    case 'share.revoked':
      return `stopped sharing ${name}`;
    case 'link.created':
      return `made a public link to ${name}`;
    case 'link.revoked':
      return `removed a public link to ${name}`;
    case 'file.deleted':
      return `deleted ${name}`;
    case 'file.purged':
      return `deleted ${name} for good`;
    case 'file.restored':
      return `restored ${name}`;
    default:
      return `changed ${name}`;
  }
}

/** Who acted, for the feed: their display name, or the file-drop link nobody signed in to. */
export const actorName = (entry: ActivityEntry) => entry.actor?.name ?? 'Someone with a file-drop link';
