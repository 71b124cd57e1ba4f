/** Saves text as a file through a temporary object URL, so no second request reaches the server. */
export function downloadText(fileName: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: `${type};charset=utf-8` }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; the next task is late enough.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
