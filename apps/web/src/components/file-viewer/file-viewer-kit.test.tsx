import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Markdown, parseBlocks } from './markdown';
import { ViewerContent, viewerKind } from './viewer-content';
import { ViewerFrame } from './viewer-frame';
import { fitScale, stepZoom, zoomLabel } from './zoom';

describe('zoom', () => {
  it('fits a picture into its box without enlarging it, and steps through the scales', () => {
    expect(fitScale({ width: 2000, height: 1000 }, { width: 1000, height: 1000 })).toBe(0.5);
    expect(fitScale({ width: 200, height: 100 }, { width: 1000, height: 1000 })).toBe(1);
    expect(stepZoom(1, 1)).toBe(1.5);
    expect(stepZoom(1, -1)).toBe(0.75);
    expect(stepZoom(0.6, 1)).toBe(0.75);
    expect(stepZoom(8, 1)).toBe(8);
    expect(stepZoom(0.25, -1)).toBe(0.25);
    expect(zoomLabel(1.5)).toBe('150%');
  });
});

describe('viewerKind', () => {
  it('shows each type its way', () => {
    expect(viewerKind('image/png')).toBe('image');
    expect(viewerKind('application/pdf')).toBe('pdf');
    expect(viewerKind('audio/wav')).toBe('audio');
    expect(viewerKind('video/mp4')).toBe('video');
    expect(viewerKind('text/plain', 'notes.md')).toBe('markdown');
    expect(viewerKind('text/markdown')).toBe('markdown');
    expect(viewerKind('application/json')).toBe('text');
    // SVG can carry script: it gets the download card, not an <img> of this site.
    expect(viewerKind('image/svg+xml')).toBe('other');
    expect(viewerKind('application/zip')).toBe('other');
  });
});

describe('Markdown', () => {
  it('renders headings, lists, emphasis and safe links, and shows HTML as text', () => {
    render(
      <Markdown
        source={
          '# Title\n\nSome **bold** and `code`.\n\n- one\n- <img src=x onerror=alert(1)>\n\n[ok](https://example.org) [bad](javascript:alert(1))'
        }
      />,
    );
    expect(screen.getByRole('heading', { name: 'Title' })).toBeTruthy();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'one',
      '<img src=x onerror=alert(1)>',
    ]);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'ok' }).getAttribute('href')).toBe('https://example.org');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(screen.getByText(/\[bad\]\(javascript:alert\(1\)\)/)).toBeTruthy();
  });

  it('keeps fenced code as it is', () => {
    expect(parseBlocks('```\n# not a heading\n```')).toEqual([{ kind: 'code', text: '# not a heading' }]);
  });
});

describe('ViewerContent', () => {
  const base = { src: '/f?inline=1', downloadHref: '/f', name: 'x', size: 2048 };

  it('shows a download card with the name, size and type for a file it cannot show', () => {
    render(<ViewerContent {...base} name="archive.zip" contentType="application/zip" />);
    const card = screen.getByTestId('download-card');
    expect(card.textContent).toContain('archive.zip');
    expect(card.textContent).toContain('2.00 KB · application/zip');
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/f');
  });

  it('plays audio from the inline address and hands the player to whoever seeks it', () => {
    const ref = { current: null as HTMLMediaElement | null };
    render(<ViewerContent {...base} contentType="audio/wav" mediaRef={ref} />);
    expect(ref.current?.tagName).toBe('AUDIO');
    expect(ref.current?.getAttribute('src')).toBe('/f?inline=1');
  });

  it('opens at a cited place: a PDF at its page, a recording at its moment once it is loaded', () => {
    const { unmount } = render(
      <ViewerContent {...base} name="a.pdf" contentType="application/pdf" place={{ page: 3 }} />,
    );
    expect(screen.getByTitle('a.pdf').getAttribute('src')).toBe('/f?inline=1#page=3');
    unmount();
    const ref = { current: null as HTMLMediaElement | null };
    render(<ViewerContent {...base} contentType="video/mp4" mediaRef={ref} place={{ startSeconds: 65 }} />);
    const player = ref.current;
    if (!player) throw new Error('no player');
    expect(player.currentTime).toBe(0);
    fireEvent.loadedMetadata(player);
    expect(player.currentTime).toBe(65);
  });

  it('zooms an image with the buttons: 100%, +, − and Fit', async () => {
    render(<ViewerContent {...base} name="photo.png" contentType="image/png" />);
    const image = screen.getByRole('img', { name: 'photo.png' });
    Object.defineProperty(image, 'naturalWidth', { value: 400 });
    Object.defineProperty(image, 'naturalHeight', { value: 200 });
    fireEvent.load(image);
    await userEvent.click(screen.getByRole('button', { name: '100%' }));
    expect(screen.getByRole('button', { name: '100%' }).getAttribute('aria-pressed')).toBe('true');
    expect(image.style.width).toBe('400px');
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByText('150%')).toBeTruthy();
    expect(image.style.width).toBe('600px');
    await userEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    await userEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(screen.getByText('75%')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Fit/ }));
    expect(image.style.width).toBe('');
  });
});

describe('ViewerFrame', () => {
  it('is a modal dialog named by the file: ← → step, Escape closes, focus returns to the opener', async () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const onClose = vi.fn();
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    const { unmount } = render(
      <ViewerFrame
        title="photo.png"
        position="2 of 3"
        onClose={onClose}
        onPrevious={onPrevious}
        onNext={onNext}
        aside={<p>Found</p>}
      >
        <p>content</p>
      </ViewerFrame>,
    );
    const dialog = screen.getByRole('dialog', { name: 'photo.png' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('button', { name: 'Close the viewer' })).toBe(document.activeElement);
    expect(screen.getByText('2 of 3')).toBeTruthy();
    await userEvent.keyboard('{ArrowRight}');
    expect(onNext).toHaveBeenCalledOnce();
    await userEvent.keyboard('{ArrowLeft}');
    expect(onPrevious).toHaveBeenCalledOnce();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledOnce();
    // The insights collapse under their button.
    await userEvent.click(screen.getByRole('button', { name: 'Insights' }));
    expect(screen.getByRole('complementary', { hidden: true }).hidden).toBe(true);
    unmount();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it('keeps Tab inside and leaves the arrows to a field', async () => {
    const onNext = vi.fn();
    render(
      <ViewerFrame title="a.txt" onClose={vi.fn()} onNext={onNext}>
        <input aria-label="Find" />
      </ViewerFrame>,
    );
    const field = screen.getByRole('textbox', { name: 'Find' });
    field.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(onNext).not.toHaveBeenCalled();
    // The last control is Next: Tab from it wraps to the first, Close.
    screen.getByRole('button', { name: 'Next file' }).focus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Close the viewer' })).toBe(document.activeElement);
    expect(screen.getByRole('button', { name: 'Previous file' })).toHaveProperty('disabled', true);
  });
});
