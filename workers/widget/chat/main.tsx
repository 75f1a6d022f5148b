/** @jsxImportSource preact */
import { render } from "preact";
import { App } from "./App";
import { readBoot, ROOT_ELEMENT_ID } from "./boot";
import "./chat.css";

// Entry of the chat UI bundle (scripts/build-widget.mjs): Preact, no Remix runtime, so the iframe
// stays within its first-load budget. The page supplies the boot JSON; nothing is fetched first.
const root = document.getElementById(ROOT_ELEMENT_ID);
const boot = readBoot(document);
if (root && boot) {
  root.textContent = "";
  render(<App boot={boot} />, root);
} else if (root) {
  root.textContent = "The chat could not start. Reload the page to try again.";
}
