import type { TeamSettings } from "../../../api/workspace.ts";
import { accentVariants } from "../../../lib/contrast.ts";
import { colorToHex } from "../settings/color.ts";

/**
 * Applies the team's accent color (spec 3 section 2.3) to the page while the workspace is open, as
 * each color scheme can show it with 4.5:1 contrast (issue 42): a dark teal stays itself on the light
 * page and is lightened on the dark one. app.css picks the scheme's pair; properties set through the
 * CSSOM, which the page's style-src 'self' allows.
 */
export function applyAccent(settings: TeamSettings | undefined): () => void {
  const root = document.documentElement;
  const clear = () => {
    for (const name of Object.keys(accentProperties(null))) root.style.removeProperty(name);
  };
  // The server validated it as a CSS color; colorToHex reads it as the browser does (null for anything else).
  const hex = colorToHex(settings?.accent_color ?? "");
  clear();
  for (const [name, value] of Object.entries(accentProperties(hex))) if (value) root.style.setProperty(name, value);
  return clear;
}

/** The custom properties app.css reads for a team accent (`#rrggbb`), or each empty for none. */
function accentProperties(hex: string | null): Record<string, string> {
  const v = hex ? accentVariants(hex) : null;
  return {
    "--team-accent-light": v?.light.accent ?? "",
    "--team-accent-light-text": v?.light.accentText ?? "",
    "--team-accent-dark": v?.dark.accent ?? "",
    "--team-accent-dark-text": v?.dark.accentText ?? "",
  };
}

/** User setting `workspace_favicon`: the tab icon becomes the workspace's initial (or the avatar). */
export function applyFavicon(enabled: boolean, name: string, avatarUrl: string | null): () => void {
  const link = document.querySelector<HTMLLinkElement>("link[rel='icon']");
  if (!link || !enabled) return () => {};
  const previous = link.href;
  if (avatarUrl) link.href = avatarUrl;
  else {
    const accent = getComputedStyle(document.documentElement).getPropertyValue("--accent").trim() || "#2a64cc";
    const letter = (name.trim()[0] ?? "W").toUpperCase().replace(/[<&>"']/g, "");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${accent}"/><text x="16" y="22" font-family="sans-serif" font-size="18" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
    link.href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
  }
  return () => {
    link.href = previous;
  };
}

let audio: AudioContext | null = null;

/** User setting `complete_sound_enabled`: the chosen file, or a short built-in chime. */
export function playCompleteSound(url: string | undefined): void {
  if (url) {
    void new Audio(url).play().catch(() => {});
    return;
  }
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // No audio output: completing still works.
  }
}
