import type { Page } from 'puppeteer-core';

/**
 * Moving through a page with the keyboard alone, as a person who uses no mouse does: Tab from control to control, each
 * one showing where focus is. A control is known by the name a person reads for it: its aria-label, its label, or
 * its text.
 */

interface Focused {
  name: string;
  tag: string;
  /** Whether something on the screen shows the focus: an outline on the control, or on the label that stands for it. */
  visible: boolean;
}

// Evaluated in the page, where the DOM lives. A visually hidden file input shows its focus on its label (its button).
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { name: '', tag: 'body', visible: false };
  const label = el.labels && el.labels[0];
  const name = (el.getAttribute('aria-label') || (label && label.textContent) || el.textContent || '').trim();
  const shows = (node) => {
    const style = node && getComputedStyle(node);
    return Boolean(style) && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  };
  const visible = shows(el) && el.getBoundingClientRect().width > 2 || (el.type === 'file' && shows(label));
  return { name, tag: el.tagName.toLowerCase(), visible };
})()`;

export const focused = async (page: Page) => (await page.evaluate(FOCUSED)) as Focused;

/**
 * Presses Tab until the control named `name` (or matching it) has the focus, checking at every stop on the
 * way that the focus can be seen; fails after `max` stops.
 */
export async function tabTo(page: Page, name: string | RegExp, max = 60): Promise<void> {
  const passed: string[] = [];
  for (let stop = 0; stop < max; stop++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    // Past the last control the focus leaves the page for the browser's own controls, then comes back to the first.
    if (now.tag === 'body') continue;
    expect({ ...now, visible: now.visible }).toEqual({ ...now, visible: true });
    if (typeof name === 'string' ? now.name === name : name.test(now.name)) return;
    passed.push(now.name);
  }
  throw new Error(`"${String(name)}" was not reached with the keyboard; the focus passed ${JSON.stringify(passed)}`);
}

/** Tabs to `name` and presses `key` on it (Enter for links and buttons, Space for check boxes). */
export async function activate(page: Page, name: string, key: 'Enter' | 'Space' = 'Enter'): Promise<void> {
  await tabTo(page, name);
  await page.keyboard.press(key);
}
