import { AppError } from "../../shared/errors.ts";

/** Spec 3 error table: setup runs once; afterwards it answers this. */
export const alreadyConfigured = () => new AppError("already_configured", 400, "Already configured");
