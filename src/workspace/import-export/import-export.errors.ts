import { AppError } from "../../shared/errors.ts";

// Spec 2 section 4.1, set error table: the exact public strings.
const CONTENT_REQUIRED = "Content is required";
const PARSE_FAILED = "Failed to parse import content";
const DUPLICATE_SIBLING = "Todo item title already exists among sibling todos: ";

/**
 * An import refused with one of the spec's strings as both `error` and `message`. `reason` is the
 * private detail (which field, which line) for tests and logs; it is never sent.
 */
export class ImportError extends AppError {
  constructor(
    code: string,
    status: 400 | 409,
    error: string,
    readonly reason?: string,
  ) {
    super(code, status, error);
    this.name = "ImportError";
  }
}

export const contentRequired = () => new ImportError("content_required", 400, CONTENT_REQUIRED);
export const parseFailed = (reason: string) => new ImportError("import_parse_failed", 400, PARSE_FAILED, reason);
// The same refusal as a todo's duplicate title (todos.errors.ts), naming the title.
export const duplicateSibling = (title: string) => new ImportError("title_taken", 409, DUPLICATE_SIBLING + title);
