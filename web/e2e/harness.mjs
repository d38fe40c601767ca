// Shared by the end-to-end test and the screenshot script: starts
// `kamil serve` on a free port and Debian's Chromium headless with a fresh
// profile.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const KAMIL = process.env.KAMIL_BIN ?? path.resolve(here, '../../target/release/kamil');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const OUT = path.join(here, 'out');

/** Starts `kamil serve --port 0 ...args`; resolves to { child, url }. */
export function startServer(args = []) {
  if (!fs.existsSync(KAMIL)) throw new Error(`no kamil binary at ${KAMIL} (cargo build --release)`);
  return new Promise((resolve, reject) => {
    const child = spawn(KAMIL, ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`kamil serve printed no address: ${text}`)), 15000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`kamil serve exited with ${code}: ${text}`)));
    child.stdout.on('data', (d) => {
      text += d;
      const m = /http:\/\/[\d.]+:\d+\//.exec(text);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ child, url: m[0] });
      }
    });
  });
}

/**
 * Launches headless Chromium with a fresh profile; resolves to { context,
 * close }. `device`: more context options (a phone's `isMobile`,
 * `hasTouch`, `deviceScaleFactor`).
 */
export async function launchBrowser(viewport = { width: 1400, height: 900 }, device = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kamil-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport,
    ...device,
  });
  const close = async () => {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/**
 * Starts `kamil serve` with `args` and opens one page in a fresh headless
 * Chromium (`viewport` and `device` as [launchBrowser] takes them; page
 * errors go to stderr and to `errors`, out/ is made); resolves to
 * { base, page, errors, close }. `close` ends the browser and the server.
 */
export async function openSession(args = [], { viewport, device } = {}) {
  const { child, url } = await startServer(args);
  const browser = await launchBrowser(viewport, device);
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => {
    errors.push(e.message);
    console.error(`page error: ${e.message}`);
  });
  fs.mkdirSync(OUT, { recursive: true });
  const close = async () => {
    await browser.close();
    child.kill();
  };
  return { base: url, page, errors, close };
}
