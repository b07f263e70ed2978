import type { AskCitation } from '@atrium/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AskAnswer } from './ask-answer';

const PDF: AskCitation = {
  n: 1,
  fileId: 'pdf1',
  fileName: 'contract.pdf',
  page: 3,
  text: 'Payment is due monthly. Either party may terminate with 30 days notice. Signed in Leeds.',
  highlights: [{ start: 24, end: 71 }],
};
const TALK: AskCitation = {
  n: 2,
  fileId: 'rec1',
  fileName: 'standup.mp3',
  startSeconds: 65.4,
  text: 'The budget review is on Friday.',
  highlights: [],
};

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(path: string, ui: React.ReactNode) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              {ui}
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

describe('AskAnswer', () => {
  it('shows the answer, each source with its page or time, and the matching sentence marked', () => {
    renderAt(
      '/dashboard/search?q=terminate',
      <AskAnswer
        answer="Either party may terminate with 30 days notice [1]. Review on Friday [2]."
        citations={[PDF, TALK]}
      />,
    );
    expect(screen.getByTestId('ask-answer-text').textContent).toBe(
      'Either party may terminate with 30 days notice [1]. Review on Friday [2].',
    );
    const sources = within(screen.getByRole('list', { name: 'Sources' })).getAllByRole('link');
    expect(sources).toHaveLength(2);
    expect(sources[0]?.textContent).toMatch(/^\[1\]contract\.pdf · page 3Payment is due monthly\./);
    expect(sources[1]?.textContent).toMatch(/^\[2\]standup\.mp3 · at 1:05The budget review/);
    const mark = sources[0]?.querySelector('mark');
    expect(mark?.textContent).toBe('Either party may terminate with 30 days notice.');
    expect(sources[1]?.querySelector('mark')).toBeNull();
  });

  it('a source opens the viewer over the page at its page or moment', async () => {
    renderAt('/dashboard/search?q=terminate', <AskAnswer answer="x [1] [2]" citations={[PDF, TALK]} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: /contract\.pdf/ }));
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/search?q=terminate&file=pdf1&page=3');
    await user.click(screen.getByRole('link', { name: /standup\.mp3/ }));
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/search?q=terminate&file=rec1&t=65');
  });

  it('outside the signed-in app a source opens the viewer over the dashboard; compact leaves the passage out', () => {
    renderAt('/about', <AskAnswer answer="x [2]" citations={[TALK]} compact />);
    const link = screen.getByRole('link', { name: /standup\.mp3/ });
    expect(link.getAttribute('href')).toBe('/dashboard?file=rec1&t=65');
    expect(link.textContent).not.toContain('budget review');
  });

  it('the not-found answer has no sources', () => {
    renderAt('/dashboard/search', <AskAnswer answer="I could not find that in your files." citations={[]} />);
    expect(screen.getByText('I could not find that in your files.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Sources' })).toBeNull();
  });
});
