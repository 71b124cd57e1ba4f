import type { Integration } from "../../api/integrations.ts";
import { Button } from "../../components/button.tsx";

/** A chosen catalog entry's name, the way back to the list, its description and documentation. */
export function CatalogEntryHead({ entry, onBack, docs }: { entry: Integration; onBack: () => void; docs: string }) {
  return (
    <>
      <div class="catalog-form-head">
        <h3>{entry.name}</h3>
        <Button variant="ghost" onClick={onBack}>
          Choose another
        </Button>
      </div>
      <p class="muted">
        {entry.description}{" "}
        <a href={entry.docs_url} target="_blank" rel="noopener noreferrer">
          {docs}
        </a>
      </p>
    </>
  );
}
