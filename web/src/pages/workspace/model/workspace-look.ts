import type { TeamSettings } from "../../../api/workspace.ts";

/** Applies the team's accent color (spec 3 section 2.3) to the page while the workspace is open. */
export function applyAccent(settings: TeamSettings | undefined): () => void {
  const root = document.documentElement;
  const color = settings?.accent_color ?? "";
  // The server validated it as a CSS color; CSS.supports guards against anything else.
  if (color && CSS.supports("color", color)) root.style.setProperty("--accent", color);
  else root.style.removeProperty("--accent");
  return () => root.style.removeProperty("--accent");
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
