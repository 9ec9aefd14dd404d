import { beforeEach, describe, expect, it } from 'vitest';
import type { VerificationEvent } from './events.js';
import { startVerificationIn } from './start.js';

// The SDK against a fake window: what it opens in each mode, and which messages reach onEvent.

const SHOP = 'https://shop.example';
const VERIFY = 'https://verify.example';
const URL_OF_SESSION = `${VERIFY}/session/0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01`;

interface FakePopup {
  closed: boolean;
  close(): void;
}
interface FakeFrame {
  src: string;
  title: string;
  style: Record<string, string>;
  contentWindow: object | null;
  removed: boolean;
  remove(): void;
}

function fakeWindow({ blocksPopups = false } = {}) {
  let listener: ((message: unknown) => void) | undefined;
  const timers = new Map<number, () => void>();
  const navigations: string[] = [];
  const opened: { url: string; target: string; features: string }[] = [];
  const popup: FakePopup = {
    closed: false,
    close() {
      this.closed = true;
    },
  };
  const frames: FakeFrame[] = [];
  const win = {
    location: { origin: SHOP, assign: (url: string) => navigations.push(url) },
    open(url: string, target: string, features: string) {
      opened.push({ url, target, features });
      return blocksPopups ? null : popup;
    },
    addEventListener(type: string, handler: (message: unknown) => void) {
      expect(type).toBe('message');
      listener = handler;
    },
    removeEventListener(type: string, handler: (message: unknown) => void) {
      if (type === 'message' && listener === handler) listener = undefined;
    },
    setInterval(handler: () => void) {
      const id = timers.size + 1;
      timers.set(id, handler);
      return id;
    },
    clearInterval(id: number) {
      timers.delete(id);
    },
    document: {
      createElement(tag: string): FakeFrame {
        expect(tag).toBe('iframe');
        const frame: FakeFrame = {
          src: '',
          title: '',
          style: {},
          contentWindow: { name: 'the frame' },
          removed: false,
          remove() {
            this.removed = true;
          },
        };
        frames.push(frame);
        return frame;
      },
    },
  };
  return {
    window: win as unknown as Window,
    popup,
    frames,
    opened,
    navigations,
    /** A message event as the browser delivers it. */
    deliver: (message: { origin: string; source: unknown; data: unknown }) => listener?.(message),
    listening: () => listener !== undefined,
    /** Runs every interval timer once, as time passing would. */
    tick: () => {
      for (const handler of [...timers.values()]) handler();
    },
    timerCount: () => timers.size,
  };
}

let received: VerificationEvent[];
const onEvent = (event: VerificationEvent) => received.push(event);
beforeEach(() => {
  received = [];
});

describe('redirect mode', () => {
  it('sends this tab to the verification URL as given, and listens to nothing', () => {
    const fake = fakeWindow();
    const handle = startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'redirect', onEvent });
    expect(handle.mode).toBe('redirect');
    expect(fake.navigations).toEqual([URL_OF_SESSION]);
    expect(fake.opened).toEqual([]);
    expect(fake.listening()).toBe(false);
    handle.close();
  });
});

describe('popup mode', () => {
  it("opens the page in a popup that knows it is the SDK's and which origin to tell", () => {
    const fake = fakeWindow();
    const handle = startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'popup', onEvent });
    expect(handle.mode).toBe('popup');
    expect(fake.opened).toEqual([
      {
        url: `${URL_OF_SESSION}?sdk=popup&origin=https%3A%2F%2Fshop.example`,
        target: 'verification',
        features: 'popup,width=480,height=760',
      },
    ]);
    expect(fake.navigations).toEqual([]);
  });

  it("passes on the documented events from the popup at the verification's origin", () => {
    const fake = fakeWindow();
    startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'popup', onEvent });
    fake.deliver({ origin: VERIFY, source: fake.popup, data: { type: 'verification.submitted' } });
    fake.deliver({
      origin: VERIFY,
      source: fake.popup,
      data: { type: 'verification.completed', status: 'verified', extra: 'dropped' },
    });
    expect(received).toEqual([
      { type: 'verification.submitted' },
      { type: 'verification.completed', status: 'verified' },
    ]);
  });

  it('ignores messages from another origin, another window, or of another shape', () => {
    const fake = fakeWindow();
    startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'popup', onEvent });
    const completed = { type: 'verification.completed', status: 'verified' };
    // Another origin, even from the popup (it navigated away), or a look-alike.
    fake.deliver({ origin: 'https://evil.example', source: fake.popup, data: completed });
    fake.deliver({ origin: 'https://verify.example.evil.example', source: fake.popup, data: completed });
    fake.deliver({ origin: 'http://verify.example', source: fake.popup, data: completed });
    fake.deliver({ origin: SHOP, source: fake.popup, data: completed });
    // The right origin, but not the popup this call opened (another tab or frame of the same site).
    fake.deliver({ origin: VERIFY, source: {}, data: completed });
    fake.deliver({ origin: VERIFY, source: null, data: completed });
    // The popup, with shapes that are not documented.
    for (const data of [
      null,
      'verification.completed',
      { type: 'verification.completed' },
      { type: 'verification.completed', status: 'processing' },
      { type: 'verification.finished', status: 'verified' },
    ]) {
      fake.deliver({ origin: VERIFY, source: fake.popup, data });
    }
    expect(received).toEqual([]);
  });

  it('compares origins as browsers write them', () => {
    const fake = fakeWindow();
    startVerificationIn(fake.window, 'HTTPS://Verify.Example:443/session/abc', { mode: 'popup', onEvent });
    fake.deliver({ origin: VERIFY, source: fake.popup, data: { type: 'verification.closed' } });
    expect(received).toEqual([{ type: 'verification.closed' }]);
  });

  it('says verification.closed once when the person closes the popup, and then stops listening', () => {
    const fake = fakeWindow();
    startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'popup', onEvent });
    fake.tick();
    expect(received).toEqual([]);
    fake.popup.closed = true;
    fake.tick();
    fake.tick();
    expect(received).toEqual([{ type: 'verification.closed' }]);
    expect(fake.listening()).toBe(false);
    expect(fake.timerCount()).toBe(0);
    fake.deliver({ origin: VERIFY, source: fake.popup, data: { type: 'verification.submitted' } });
    expect(received).toHaveLength(1);
  });

  it('close() closes the popup and stops listening, without an event, however often it is called', () => {
    const fake = fakeWindow();
    const handle = startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'popup', onEvent });
    handle.close();
    handle.close();
    expect(fake.popup.closed).toBe(true);
    expect(fake.listening()).toBe(false);
    expect(fake.timerCount()).toBe(0);
    fake.tick();
    fake.deliver({ origin: VERIFY, source: fake.popup, data: { type: 'verification.submitted' } });
    expect(received).toEqual([]);
  });

  it('goes to the page in this tab when the browser blocks the popup', () => {
    const fake = fakeWindow({ blocksPopups: true });
    const handle = startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'popup', onEvent });
    expect(handle.mode).toBe('redirect');
    expect(fake.navigations).toEqual([URL_OF_SESSION]);
    expect(fake.listening()).toBe(false);
    expect(fake.timerCount()).toBe(0);
  });

  it('works without onEvent', () => {
    const fake = fakeWindow();
    startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'popup' });
    fake.deliver({ origin: VERIFY, source: fake.popup, data: { type: 'verification.submitted' } });
    fake.popup.closed = true;
    expect(() => fake.tick()).not.toThrow();
  });
});

describe('embed mode', () => {
  it('adds a titled, borderless iframe of the page to the container and passes on its events only', () => {
    const fake = fakeWindow();
    const added: unknown[] = [];
    const container = { appendChild: (node: unknown) => added.push(node) } as unknown as Element;
    const handle = startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'embed', onEvent, container });
    expect(handle.mode).toBe('embed');
    const [frame] = fake.frames;
    expect(added).toEqual([frame]);
    expect(frame).toMatchObject({
      src: `${URL_OF_SESSION}?sdk=embed&origin=https%3A%2F%2Fshop.example`,
      title: 'Identity verification',
      style: { border: '0', width: '100%', height: '100%' },
    });

    const completed = { type: 'verification.completed', status: 'rejected' };
    fake.deliver({ origin: VERIFY, source: frame?.contentWindow, data: completed });
    fake.deliver({ origin: 'https://evil.example', source: frame?.contentWindow, data: completed });
    fake.deliver({ origin: VERIFY, source: fake.popup, data: completed });
    fake.deliver({ origin: VERIFY, source: frame?.contentWindow, data: { type: 'verification.completed' } });
    expect(received).toEqual([{ type: 'verification.completed', status: 'rejected' }]);

    handle.close();
    expect(frame?.removed).toBe(true);
    expect(fake.listening()).toBe(false);
    expect(fake.opened).toEqual([]);
  });

  it('ignores every message while the iframe has no window', () => {
    const fake = fakeWindow();
    const container = { appendChild: (node: FakeFrame) => Object.assign(node, { contentWindow: null }) };
    startVerificationIn(fake.window, URL_OF_SESSION, { mode: 'embed', onEvent, container: container as never });
    fake.deliver({ origin: VERIFY, source: null, data: { type: 'verification.submitted' } });
    expect(received).toEqual([]);
  });
});

describe('mistakes', () => {
  it.each([
    ['not a URL', 'session/abc', { mode: 'popup' }, TypeError],
    ['a javascript: URL', 'javascript:alert(1)', { mode: 'redirect' }, 'verificationUrl must be an http(s) URL'],
    ['a data: URL', 'data:text/html,hi', { mode: 'popup' }, 'verificationUrl must be an http(s) URL'],
    ['an unknown mode', URL_OF_SESSION, { mode: 'modal' }, 'mode must be redirect, popup or embed'],
    ['embed without a container', URL_OF_SESSION, { mode: 'embed' }, 'embed mode needs a container element'],
  ] as const)('throws a TypeError for %s, opening nothing', (_name, url, options, error) => {
    const fake = fakeWindow();
    expect(() => startVerificationIn(fake.window, url, options as never)).toThrow(error);
    expect(() => startVerificationIn(fake.window, url, options as never)).toThrow(TypeError);
    expect(fake.navigations).toEqual([]);
    expect(fake.opened).toEqual([]);
    expect(fake.frames).toEqual([]);
  });
});
