/** @jsxImportSource hono/jsx */
// The HTML document around every hub page. Styles and script are files served by this Worker
// (worker/hub/assets.ts), never a CDN, and the page works without the script (links open clips).
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { FAVICON, HUB_ASSETS } from "./assets";

export function Page(props: { title: string; refreshSeconds?: number; children: Child }) {
  // The doctype keeps browsers out of quirks mode (JSX cannot spell it).
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          {/* Share links carry their credential in the URL: never send it on, never index it. */}
          <meta name="referrer" content="no-referrer" />
          <meta name="robots" content="noindex, nofollow" />
          {props.refreshSeconds ? <meta http-equiv="refresh" content={String(props.refreshSeconds)} /> : null}
          <title>{props.title}</title>
          <link rel="icon" href={FAVICON.path} type={FAVICON.contentType} />
          <link rel="stylesheet" href={HUB_ASSETS.css.path} />
          <script src={HUB_ASSETS.js.path} defer></script>
        </head>
        <body>
          <a class="skip" href="#main">
            Skip to content
          </a>
          {props.children}
        </body>
      </html>
    </>
  );
}

/** A page that only says something: refused links, missing sessions. */
export function MessagePage(props: { title: string; heading: string; lines: string[] }) {
  return (
    <Page title={props.title}>
      <main id="main" class="message">
        <h1>{props.heading}</h1>
        {props.lines.map((line) => (
          <p>{line}</p>
        ))}
      </main>
    </Page>
  );
}
