// Headless Chromium from the operating system (Debian's `chromium` package; `.ci/run` installs it),
// driven by playwright-core: no browser is downloaded. `CHROMIUM_PATH` points at another build.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Screenshots of the browser tests (git-ignored; linked from the README). */
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, "../.artifacts");

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM_PATH}. On Debian or Ubuntu: \`apt-get install -y chromium\` (.ci/run does this); elsewhere set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
  }
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  // playwright-core gives every launch a fresh temporary profile (its own --user-data-dir) and
  // removes it on close.
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export const artifact = (name: string) => path.join(ARTIFACTS_DIR, name);
