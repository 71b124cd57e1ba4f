import { useEffect, useRef } from "preact/hooks";
import { Button } from "../../components/button.tsx";
import { copyText } from "../../components/copy-field.tsx";

/** Fresh backup codes, shown this once, with copy and download. */
export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = `${codes.join("\n")}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${location.hostname}-backup-codes.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div class="notice notice-success">
      <h3 ref={heading} tabIndex={-1}>
        Save your backup codes
      </h3>
      <p>Each code signs you in once if you lose your authenticator. They are shown only now: store them somewhere safe.</p>
      <ol class="codes" aria-label="Backup codes">
        {codes.map((c) => (
          <li key={c} class="mono">
            {c}
          </li>
        ))}
      </ol>
      <div class="form-actions">
        <Button variant="secondary" onClick={() => void copyText(text, "Backup codes copied")}>
          Copy codes
        </Button>
        <Button variant="secondary" onClick={download}>
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}
