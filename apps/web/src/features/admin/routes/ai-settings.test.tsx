import type { AiModelList, AiModelRecord } from '@atrium/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubFetch } from '../../../test/render';
import AiSettingsPage from './ai-settings';

afterEach(() => vi.unstubAllGlobals());

const model = (overrides: Partial<AiModelRecord>): AiModelRecord => ({
  id: 'm1',
  name: 'qwen2.5-0.5b-instruct-q4_0.gguf',
  sizeBytes: 400 * 1024 * 1024,
  architecture: 'qwen2',
  embeddingLength: 896,
  contextLength: 32768,
  role: null,
  uploadedAt: '2026-11-28T10:00:00.000Z',
  uploadedBy: 'admin',
  ...overrides,
});

/** A tiny server: the list, selecting a role, deleting. */
function modelsServer(initial: AiModelRecord[], chat: AiModelList['chat'] = { kind: 'none', label: null }) {
  let models = initial;
  const list = (): AiModelList => {
    const inUse = models.find((m) => m.role === 'chat');
    return {
      models,
      chat: chat.kind === 'provider' ? chat : inUse ? { kind: 'model', label: inUse.name } : chat,
      embeddings: { kind: 'none', label: null },
      maxUploadBytes: 16 * 1024 ** 3,
    };
  };
  return stubFetch((url, init) => {
    if (url === '/api/admin/ai/models') return { status: 200, body: list() };
    const role = /^\/api\/admin\/ai\/models\/(.+)\/role$/.exec(url)?.[1];
    if (role && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { role: AiModelRecord['role'] };
      models = models.map((m) =>
        m.id === role ? { ...m, role: body.role } : m.role === body.role ? { ...m, role: null } : m,
      );
      return { status: 200, body: models.find((m) => m.id === role) };
    }
    const id = /^\/api\/admin\/ai\/models\/([^/]+)$/.exec(url)?.[1];
    const found = models.find((m) => m.id === id);
    if (found && init?.method === 'DELETE') {
      models = models.filter((m) => m.id !== id);
      return { status: 200, body: found };
    }
    return undefined;
  });
}

describe('AI settings page', () => {
  it('says nothing leaves the server when nothing is configured, and offers the upload', async () => {
    modelsServer([]);
    renderAt('/dashboard/admin/ai', <AiSettingsPage />);
    expect(await screen.findByText('No models uploaded yet.')).toBeTruthy();
    expect(screen.getByText('None (extractive answers only; nothing leaves this server)')).toBeTruthy();
    expect(screen.getByText('None (word and synonym matching only; nothing leaves this server)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload a model' })).toBeTruthy();
  });

  it('names a configured provider', async () => {
    modelsServer([], { kind: 'provider', label: 'qwen2.5:3b (ollama.internal:11434)' });
    renderAt('/dashboard/admin/ai', <AiSettingsPage />);
    expect(await screen.findByText('Provider: qwen2.5:3b (ollama.internal:11434)')).toBeTruthy();
  });

  it('selects a model for answers, then deletes it after the confirmation', async () => {
    const calls = modelsServer([model({})]);
    renderAt('/dashboard/admin/ai', <AiSettingsPage />);
    const item = await screen.findByRole('listitem', { name: 'Model qwen2.5-0.5b-instruct-q4_0.gguf' });
    expect(item.textContent).toContain('qwen2 · 400.00 MB · context 32768');
    await userEvent.click(within(item).getByRole('button', { name: 'Use for answers' }));
    await waitFor(() => expect(screen.getByText('Uploaded model: qwen2.5-0.5b-instruct-q4_0.gguf')).toBeTruthy());
    expect(calls).toContainEqual({ url: '/api/admin/ai/models/m1/role', method: 'PUT', body: { role: 'chat' } });
    expect(within(item).getByText('Answers')).toBeTruthy();
    await userEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('alertdialog');
    expect(
      within(confirm).getByText('Delete this model? Answers that use it fall back to the extractive answer.'),
    ).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No models uploaded yet.')).toBeTruthy();
  });
});
