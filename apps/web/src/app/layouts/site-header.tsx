import { Menu, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Logo } from '../../components/ui/logo';

export const SITE_NAV = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/features', label: 'Features' },
  { to: '/testimonials', label: 'Reviews' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/contact', label: 'Contact' },
] as const;

/** The header style changes after this much scroll (docs/PRODUCT.md#site-header). */
export const HEADER_SCROLL_THRESHOLD_PX = 10;

export { Logo };

/** The public site header: links, Get Started, a mobile menu, and a style that changes on scroll. */
export function SiteHeader() {
  const [scrolled, setScrolled] = useState(false);
  const location = useLocation();
  // The menu belongs to the page it was opened on: a new page (link or back button) closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === location.pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? location.pathname : null);
  const menuId = useId();
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // An open menu closes on Esc (focus goes back to the ☰ button) and on a tap or click outside the header.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenOn(null);
      toggleRef.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !headerRef.current?.contains(event.target)) setMenuOpenOn(null);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > HEADER_SCROLL_THRESHOLD_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
      isActive ? 'text-brand-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
    }`;

  return (
    <header
      ref={headerRef}
      data-scrolled={scrolled ? 'true' : 'false'}
      className={`sticky top-0 z-40 h-16 border-b transition-[background-color,box-shadow,border-color] duration-200 ${
        scrolled || menuOpen ? 'border-slate-200 bg-white/95 shadow-md backdrop-blur' : 'border-transparent bg-slate-50'
      }`}
    >
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight text-slate-900">
          <Logo />
          <span>Atrium</span>
        </Link>
        <ul className="hidden items-center gap-1 lg:flex">
          {SITE_NAV.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end className={linkClass}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-2">
          <Link
            to="/login"
            className="hidden rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 sm:inline-block"
          >
            Get Started
          </Link>
          <button
            ref={toggleRef}
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 lg:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          </button>
        </div>
      </nav>
      <div
        id={menuId}
        hidden={!menuOpen}
        className="absolute inset-x-0 top-16 border-b border-slate-200 bg-white shadow-lg lg:hidden"
      >
        <ul className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3">
          {SITE_NAV.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end
                className={(state) => `${linkClass(state)} flex min-h-11 items-center text-base`}
                onClick={() => setMenuOpen(false)}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
          <li className="pt-2">
            <Link
              to="/login"
              onClick={() => setMenuOpen(false)}
              className="flex min-h-11 items-center justify-center rounded-lg bg-brand-600 px-4 py-2.5 text-base font-semibold text-white hover:bg-brand-700"
            >
              Get Started
            </Link>
          </li>
        </ul>
      </div>
    </header>
  );
}
