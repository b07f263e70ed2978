import { MoreVertical, type LucideIcon } from 'lucide-react';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type CSSProperties,
} from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  label: string;
  icon?: LucideIcon;
  /** A link (e.g. a download) instead of an action. */
  href?: string;
  download?: string;
  /** Open the link in a new tab. */
  newTab?: boolean;
  onSelect?: () => void;
  danger?: boolean;
}

const itemClass =
  'flex w-full items-center gap-2 px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none';
const dangerClass = 'text-red-700 hover:bg-red-50 focus-visible:bg-red-50';

/** Space kept between the menu and the viewport's edges, and between the menu and its button. */
const EDGE = 8;
/** Where an open menu starts, before it is measured and placed (one object: React never writes it again). */
const INITIAL_STYLE: CSSProperties = { top: 0, left: 0 };
const GAP = 4;

/** A box on screen: the button's, or a zero-size one at the pointer (a right-click). */
export interface Anchor {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * Where a menu of `size` goes for `anchor` in a viewport of `view`: below it, right edges aligned (left edges at
 * a pointer), flipped above when it does not fit below and there is more room above, and always inside the
 * viewport horizontally; `maxHeight` when it fits neither way (the menu scrolls).
 */
export function placeMenu(
  anchor: Anchor,
  size: { width: number; height: number },
  view: { width: number; height: number },
  align: 'right' | 'left' = 'right',
): { top: number; left: number; maxHeight: number } {
  const below = view.height - anchor.bottom - GAP - EDGE;
  const above = anchor.top - GAP - EDGE;
  const up = size.height > below && above > below;
  const maxHeight = Math.max(0, up ? above : below);
  const height = Math.min(size.height, maxHeight);
  const top = up ? anchor.top - GAP - height : anchor.bottom + GAP;
  const wanted = align === 'right' ? anchor.right - size.width : anchor.left;
  const left = Math.max(EDGE, Math.min(wanted, view.width - size.width - EDGE));
  return { top, left, maxHeight };
}

/**
 * A menu behind one button (UI kit, WAI-ARIA menu button): Enter, Space or ArrowDown open it on the first
 * item, ArrowUp on the last; arrows, Home and End move; Escape or Tab close it and focus returns to the button;
 * a click elsewhere closes it; it follows its button when the page scrolls. The open menu is rendered in a layer above the page (a
 * portal at z-50, above the floating assistant buttons at z-40), so no list or card clips it: placed against the
 * button, flipped upward near the bottom edge and kept inside the viewport (docs/PRODUCT.md#spaces-screens).
 * With `contextArea` (a CSS selector such as `tr` or `li`), a right-click on the closest such ancestor opens the
 * same menu at the pointer.
 */
export function Menu({
  label,
  items,
  contextArea,
  button,
  buttonClassName,
}: {
  label: string;
  items: MenuItem[];
  contextArea?: string;
  /** The button's content (default: a ⋮ icon, the label read by assistive technology only). */
  button?: ReactNode;
  buttonClassName?: string;
}) {
  const menuId = useId();
  const [open, setOpen] = useState(false);
  /** A right-click's point; null when opened from the button. */
  const [point, setPoint] = useState<{ x: number; y: number } | null>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const focusOnOpen = useRef<'first' | 'last'>('first');

  const elements = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  // Place the menu before the browser paints it (measured first, then put where it fits), and focus an item.
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const menu = menuRef.current;
      const trigger = buttonRef.current;
      if (!menu || !trigger) return;
      const anchor: Anchor = point
        ? { top: point.y, bottom: point.y, left: point.x, right: point.x }
        : trigger.getBoundingClientRect();
      const { top, left, maxHeight } = placeMenu(
        anchor,
        { width: menu.offsetWidth, height: menu.scrollHeight },
        { width: document.documentElement.clientWidth || window.innerWidth, height: window.innerHeight },
        point ? 'left' : 'right',
      );
      Object.assign(menu.style, { top: `${top}px`, left: `${left}px`, maxHeight: `${maxHeight}px` });
    };
    place();
    const list = elements();
    (focusOnOpen.current === 'first' ? list[0] : list.at(-1))?.focus({ preventScroll: true });
    // A scroll of the page (a smooth one still running when it opened, too) moves the button: the menu follows it.
    const onScroll = (event: Event) => {
      if (!(event.target instanceof Node && menuRef.current?.contains(event.target))) place();
    };
    window.addEventListener('resize', place);
    document.addEventListener('scroll', onScroll, true);
    return () => {
      window.removeEventListener('resize', place);
      document.removeEventListener('scroll', onScroll, true);
    };
  }, [open, point]);

  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) =>
      target instanceof Node && (wrapperRef.current?.contains(target) || menuRef.current?.contains(target));
    const onPointerDown = (event: PointerEvent) => {
      if (!inside(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  // A right-click on the row or card opens this menu at the pointer.
  useEffect(() => {
    if (!contextArea) return;
    const area = wrapperRef.current?.parentElement?.closest(contextArea);
    if (!area) return;
    const onContextMenu = (event: MouseEvent) => {
      if (menuRef.current?.contains(event.target as Node)) return;
      event.preventDefault();
      focusOnOpen.current = 'first';
      setPoint({ x: event.clientX, y: event.clientY });
      setOpen(true);
    };
    area.addEventListener('contextmenu', onContextMenu as EventListener);
    return () => area.removeEventListener('contextmenu', onContextMenu as EventListener);
  }, [contextArea]);

  const openAt = (where: 'first' | 'last') => {
    focusOnOpen.current = where;
    setPoint(null);
    setOpen(true);
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    // The menu lives in a portal: its keys must not reach the row's or grid's handlers through React's tree.
    event.stopPropagation();
    const list = elements();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      // The portal sits at the end of the page: Tab would leave for its end; back to the button instead.
      event.preventDefault();
      close(true);
    } else if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
  };

  const menu = (
    <div
      ref={menuRef}
      id={menuId}
      role="menu"
      aria-label={label}
      onKeyDown={onMenuKeyDown}
      // Clicks inside must not reach the row or card (e.g. its selection) through React's tree either.
      onClick={(event) => event.stopPropagation()}
      onContextMenu={(event) => event.preventDefault()}
      style={INITIAL_STYLE}
      data-testid="menu"
      className="fixed z-50 w-48 max-w-[calc(100vw-16px)] overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
    >
      {items.map(({ label: text, icon: Icon, href, download, newTab, onSelect, danger }) => {
        const content = (
          <>
            {Icon && <Icon aria-hidden="true" className="size-4 shrink-0" />} {text}
          </>
        );
        const className = `${itemClass} ${danger ? dangerClass : ''}`;
        return href ? (
          <a
            key={text}
            role="menuitem"
            tabIndex={-1}
            href={href}
            download={download}
            target={newTab ? '_blank' : undefined}
            rel={newTab ? 'noopener' : undefined}
            onClick={() => {
              close(true);
              onSelect?.();
            }}
            className={className}
          >
            {content}
          </a>
        ) : (
          <button
            key={text}
            role="menuitem"
            tabIndex={-1}
            type="button"
            onClick={() => {
              close(true);
              onSelect?.();
            }}
            className={className}
          >
            {content}
          </button>
        );
      })}
    </div>
  );

  return (
    <div ref={wrapperRef} className="relative inline-block text-left">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={button ? undefined : label}
        onClick={() => (open ? close(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
        className={
          buttonClassName ??
          'inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600'
        }
      >
        {button ?? <MoreVertical aria-hidden="true" className="size-4" />}
      </button>
      {open && createPortal(menu, document.body)}
    </div>
  );
}
