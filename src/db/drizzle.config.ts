import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/**/*.table.ts",
  out: "./migrations",
});
