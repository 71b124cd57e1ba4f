import { useEffect, useRef, useState } from "preact/hooks";
import type { CaptchaProvider } from "../../api/two-factor.ts";

export type CaptchaSolution = { captcha_token: string } | { pow_challenge: string; pow_nonce: string };

/**
 * The built-in proof of work: solved in a Web Worker (the page stays responsive) with a progress
 * bar; the solution goes with the confirmation and is checked, once, by the server.
 */
export function ProofOfWork({ pow, onSolved }: { pow: { challenge: string; difficulty: number }; onSolved: (s: CaptchaSolution) => void }) {
  const [progress, setProgress] = useState(0);
  const [done, setDone] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    setDone(false);
    setProgress(0);
    let worker: Worker;
    try {
      worker = new Worker("/pow-worker.js");
    } catch (e) {
      setFailed((e as Error).message);
      return;
    }
    worker.onmessage = (event: MessageEvent<{ done: boolean; progress?: number; nonce?: string }>) => {
      if (!event.data.done) return setProgress(event.data.progress ?? 0);
      setDone(true);
      setProgress(1);
      onSolved({ pow_challenge: pow.challenge, pow_nonce: event.data.nonce as string });
      worker.terminate();
    };
    worker.onerror = () => setFailed("The browser check could not run. Reload the page.");
    worker.postMessage(pow);
    return () => worker.terminate();
  }, [pow.challenge]);
  if (failed) return <p class="form-error">{failed}</p>;
  return (
    <div class="pow" aria-live="polite">
      <label class="pow-label" for="pow-progress">
        {done ? "Browser check done." : "Checking your browser (a short computation that keeps bots out)…"}
      </label>
      <progress id="pow-progress" max={1} value={progress} data-done={done ? "true" : "false"} />
    </div>
  );
}

type WidgetApi = { render(el: HTMLElement, options: { sitekey: string; callback: (token: string) => void; "expired-callback"?: () => void }): unknown };

/** Where each provider's widget script lives and the global it defines. */
const WIDGETS: Record<Exclude<CaptchaProvider, "none" | "pow">, { src: string; global: string }> = {
  hcaptcha: { src: "https://js.hcaptcha.com/1/api.js?render=explicit", global: "hcaptcha" },
  turnstile: { src: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit", global: "turnstile" },
  recaptcha: { src: "https://www.google.com/recaptcha/api.js?render=explicit", global: "grecaptcha" },
};

/** A third-party captcha widget (hCaptcha, Turnstile, reCAPTCHA); its token is checked server-side. */
export function ThirdPartyCaptcha({
  provider,
  siteKey,
  onSolved,
}: {
  provider: Exclude<CaptchaProvider, "none" | "pow">;
  siteKey: string;
  onSolved: (s: CaptchaSolution | null) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const { src, global } = WIDGETS[provider];
    const lookup = () => (window as unknown as Record<string, WidgetApi | undefined>)[global];
    if (!document.querySelector(`script[src="${src}"]`)) {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onerror = () => setFailed("The captcha could not be loaded. Check your connection, or ask the site's administrator.");
      document.head.append(script);
    }
    let tries = 0;
    const timer = setInterval(() => {
      const api = lookup();
      if (api?.render && box.current) {
        clearInterval(timer);
        api.render(box.current, { sitekey: siteKey, callback: (token) => onSolved({ captcha_token: token }), "expired-callback": () => onSolved(null) });
      } else if (++tries > 100) {
        clearInterval(timer);
        setFailed("The captcha could not be loaded. Check your connection, or ask the site's administrator.");
      }
    }, 100);
    return () => clearInterval(timer);
  }, [provider, siteKey]);
  return failed ? <p class="form-error">{failed}</p> : <div ref={box} class="captcha-widget" />;
}
