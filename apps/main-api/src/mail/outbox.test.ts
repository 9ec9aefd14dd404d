import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailSender } from './outbox.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'main-api-outbox-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the outbox mail sender', () => {
  it('writes each message as an .eml file, creating the folder', async () => {
    const directory = path.join(folder, 'outbox');
    const sender = createOutboxMailSender({ directory, from: 'Platform <no-reply@localhost>' });
    await sender.send({ to: 'ann@example.com', subject: 'First', text: 'One' });
    await sender.send({ to: 'bob@example.com', subject: 'Second', text: 'Two' });

    const files = (await readdir(directory)).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f-]{36}\.eml$/);
    const messages = await Promise.all(files.map((file) => readFile(path.join(directory, file), 'utf8')));
    const first = messages.find((message) => message.includes('Subject: First'));
    expect(first).toMatch(/^From: Platform <no-reply@localhost>\r$/m);
    expect(first).toMatch(/^To: ann@example\.com\r$/m);
    expect(first).toContain('\r\n\r\nOne');
  });
});
