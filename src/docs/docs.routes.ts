import { Elysia, t } from "elysia";
import { CONFIG_READ, CONFIG_WRITE } from "../contract/scopes.ts";
import { authPlugin } from "../access/access.plugin.ts";
import type { AppContext } from "../context/context.ts";
import { Ok } from "../contract/api/common.ts";
import { DocsOverview, DocsRefreshed, DocsSettingsAnswer, DocsSourceAnswer } from "../contract/api/docs.ts";
import { audit } from "../identity/audit/audit.service.ts";
import { cacheSizes, dropSource } from "./cache/docs-cache.ts";
import { docsSettingsView, updateDocsSettings } from "./settings/docs-settings.ts";
import { diagramSvg } from "./site/diagrams.ts";
import { DOCS_CSS } from "./site/docs.css.ts";
import { emptySiteHtml, type Frame, missingHtml, pageHtml, searchHtml, unknownSourceHtml } from "./site/layout.ts";
import { decodeSafely, pageUrl } from "./pages/pages.ts";
import { machineLocales, translatedLabels, uiText } from "./site/translate.ts";
import { docPage, siteLocales } from "./site/site.service.ts";
import { navLookup } from "./site/nav.ts";
import { dropSearch, searchDocs } from "./search/search.service.ts";
import { forgetLocalTrees, RepositoryUnavailable, repositoryOf } from "./repository/repository.ts";
import { createSource, deleteSource, findSource, listSources, sourceView, updateSource } from "./sources/sources.service.ts";
import { guideHidden, isGuide, siteSource, siteSources, updateGuide } from "./guide/guide.service.ts";
import { GUIDE } from "./repository/guide-files.ts";
import { resolvePrincipal } from "../access/access.context.ts";
// Cairn's mark, the SPA's own file: the docs site's icon (without one a browser asks for /favicon.ico, a 404).
import MARK from "../../web/src/assets/cairn.svg" with { type: "text" };
import { sourceNotFound } from "./sources/sources.errors.ts";
import type { DocsSourceRow } from "./sources/sources.table.ts";
import { webhookRoutes } from "./webhook/webhook.routes.ts";
import { CLUSTER_TOPICS } from "../shared/cluster-topics.ts";
import { recentDeliveries } from "./webhook/webhook.service.ts";

export { WEBHOOK_PATH } from "./webhook/webhook.routes.ts";

/** Docs pages load only their stylesheet and pictures; nothing runs in them. */
const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/** A served repository picture (an SVG included) is an image, never a document that runs anything. */
const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const SourceBody = t.Object({
  slug: t.Optional(t.String({ maxLength: 40 })),
  name: t.Optional(t.String({ maxLength: 100 })),
  kind: t.Optional(t.Union([t.Literal("github"), t.Literal("local")])),
  full_name: t.Optional(t.String({ maxLength: 201 })),
  branch: t.Optional(t.String({ maxLength: 200 })),
  docs_root: t.Optional(t.String({ maxLength: 200 })),
  api_base: t.Optional(t.String({ maxLength: 500 })),
  token: t.Optional(t.String({ maxLength: 500 })),
  local_path: t.Optional(t.String({ maxLength: 1000 })),
  locales: t.Optional(t.Array(t.String({ maxLength: 16 }), { maxItems: 20 })),
  default_locale: t.Optional(t.String({ maxLength: 16 })),
  /** The built-in guide only: kept off the site (it cannot be removed). */
  hidden: t.Optional(t.Boolean()),
});

/** The documentation site (`/docs`), its push webhook (`/api/webhook`) and its admin API (`/api/docs`). */
export function docsRoutes(ctx: AppContext) {
  ctx.cluster.on(CLUSTER_TOPICS.docsForgetLocalTrees, () => forgetLocalTrees(ctx));
  /** `personal`: a page that differs by who asks (the empty site's link for admins), never kept by a shared cache. */
  const html = (body: string, status = 200, personal = false) =>
    new Response(body, {
      status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": PAGE_CSP,
        // Spec 3 section 8: DOCS_HTML_TTL_SECONDS bounds how stale an edge's copy may be.
        "cache-control": status === 200 && !personal ? `public, max-age=${ctx.config.docsHtmlTtlSeconds}` : "no-store",
      },
    });

  /** What every page of a source in a locale shows around its content; `sidebar` as navLookup makes it. */
  const frameFor = async (source: DocsSourceRow, locale: string, path: string, localeUrl: (l: string) => string, sidebar = ""): Promise<Frame> => {
    const sources = await siteSources(ctx);
    let names: Map<string, string> | undefined;
    if ((await machineLocales(ctx, source)).includes(locale)) {
      const translated = await translatedLabels(
        ctx,
        source,
        locale,
        "repo-nav",
        sources.map((s) => s.name),
      ).catch(() => sources.map((s) => s.name));
      names = new Map(sources.map((s, i) => [s.id, translated[i] ?? s.name]));
    }
    return {
      siteName: (await ctx.siteBranding()).site_name,
      sources,
      source,
      locale,
      path,
      localeUrl,
      sidebar,
      locales: await siteLocales(ctx, source),
      ui: await uiText(ctx, locale),
      names,
    };
  };

  /** `rest` after /docs/<slug>/: the locale (when the source has locale folders) and the page. */
  const splitLocale = async (source: DocsSourceRow, rest: string) => {
    if (source.locales.length === 0) return { locale: source.defaultLocale, page: rest };
    const [first = "", ...more] = rest.split("/");
    return (await siteLocales(ctx, source)).includes(first) ? { locale: first, page: more.join("/") } : null;
  };

  const page = async (slug: string, rest: string) => {
    const source = await siteSource(ctx, slug);
    if (!source) return html(await unknownSource(), 404);
    const split = await splitLocale(source, decodeSafely(rest));
    // Without a locale segment: the default locale's page of that path.
    if (split === null) return Response.redirect(`/docs/${source.slug}/${source.defaultLocale}/${rest}`, 302);
    const { locale } = split;
    try {
      const { page: ref, sidebar } = await navLookup(ctx, source, locale, split.page);
      const url = ref ? pageUrl(source, locale, ref.pagePath) : `/docs/${source.slug}/${rest}`;
      const localeUrl = (l: string) => (ref ? pageUrl(source, l, ref.pagePath) : pageUrl(source, l, ""));
      const frame = await frameFor(source, locale, url, localeUrl, sidebar);
      const doc = ref ? await docPage(ctx, source, locale, ref) : null;
      if (!ref || !doc || doc.draft) return html(missingHtml(frame, "There is no page at this address. The sidebar leads to every page."), 404);
      return html(pageHtml(frame, doc, ref));
    } catch (e) {
      if (!(e instanceof RepositoryUnavailable)) throw e;
      ctx.log.warn("docs: repository unavailable", { source: source.slug, detail: e.detail });
      const frame = await frameFor(source, locale, "", (l) => pageUrl(source, l, ""));
      return html(missingHtml(frame, "This page cannot be read from its repository right now. Try again in a minute."), 404);
    }
  };
  const unknownSource = async () => unknownSourceHtml((await ctx.siteBranding()).site_name);

  return (
    new Elysia({ name: "docs-routes" })
      .use(authPlugin(ctx))
      .get("/docs", async ({ request }) => {
        const [first] = await siteSources(ctx);
        if (first) return Response.redirect(pageUrl(first, first.defaultLocale, ""), 302);
        const caller = await resolvePrincipal(ctx, request);
        return html(emptySiteHtml((await ctx.siteBranding()).site_name, caller?.kind === "session" && caller.user.role === "admin"), 200, true);
      })
      .get("/docs/_assets/icon.svg", () => new Response(MARK, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } }))
      .get(
        "/docs/_assets/docs.css",
        () => new Response(DOCS_CSS, { headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" } }),
      )
      .get("/docs/_diagrams/:type/:file", async ({ params }) => {
        const svg = await diagramSvg(ctx, params.type, params.file);
        if (svg === null) return new Response("diagram not available", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
        return new Response(svg, {
          headers: { "content-type": "image/svg+xml", "content-security-policy": FILE_CSP, "cache-control": "public, max-age=604800, immutable" },
        });
      })
      .get("/docs/:slug/_search", async ({ params, query }) => {
        const source = await siteSource(ctx, params.slug);
        if (!source) return html(await unknownSource(), 404);
        const locale = (await siteLocales(ctx, source)).includes(String(query.locale ?? "")) ? String(query.locale) : source.defaultLocale;
        const q = String(query.q ?? "").slice(0, 200);
        try {
          const { hits, building } = await searchDocs(ctx, source, locale, q);
          // The sidebar as on the home page; a search answers without one rather than not at all.
          const sidebar = (await navLookup(ctx, source, locale, "").catch(() => null))?.sidebar;
          const frame = await frameFor(
            source,
            locale,
            "",
            (l) => `/docs/${source.slug}/_search?locale=${encodeURIComponent(l)}&q=${encodeURIComponent(q)}`,
            sidebar,
          );
          return html(searchHtml(frame, q, hits, building));
        } catch (e) {
          if (!(e instanceof RepositoryUnavailable)) throw e;
          ctx.log.warn("docs: search index not built", { source: source.slug, detail: e.detail });
          const frame = await frameFor(source, locale, "", (l) => pageUrl(source, l, ""));
          return html(missingHtml(frame, "Search cannot read this repository right now. Try again in a minute."), 404);
        }
      })
      .get("/docs/:slug/_files/*", async ({ params }) => {
        const source = await siteSource(ctx, params.slug);
        if (!source) return new Response("not found", { status: 404 });
        try {
          const file = await repositoryOf(ctx, source).file(decodeSafely(params["*"]));
          return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
            headers: { "content-type": file.type, "content-security-policy": FILE_CSP, "cache-control": `public, max-age=${ctx.config.docsHtmlTtlSeconds}` },
          });
        } catch (e) {
          if (!(e instanceof RepositoryUnavailable)) throw e;
          return new Response("not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
        }
      })
      // `/docs/<slug>` is the source's home, at `/docs/<slug>/` (relative links in pages resolve from there).
      .get("/docs/:slug", async ({ params, request }) =>
        new URL(request.url).pathname.endsWith("/") ? await page(params.slug, "") : Response.redirect(`/docs/${encodeURIComponent(params.slug)}/`, 301),
      )
      .get("/docs/:slug/*", async ({ params }) => await page(params.slug, params["*"]))
      .use(webhookRoutes(ctx))
      // Site admins: sources, deliveries, caches, renderers.
      .get(
        "/api/docs/sources",
        async () => ({
          sources: await Promise.all(
            (await listSources(ctx)).map(async (s) => ({
              ...sourceView(s, ctx.config.issuer, isGuide(s) && (await guideHidden(ctx))),
              cache: await cacheSizes(ctx, s.id),
            })),
          ),
          webhook: { url: `${ctx.config.issuer}/api/webhook`, secret_configured: ctx.config.docsWebhookSecret !== "" },
          deliveries: await recentDeliveries(ctx),
        }),
        { auth: { admin: true, scope: CONFIG_READ }, response: DocsOverview },
      )
      .post(
        "/api/docs/sources",
        async ({ principal, body, set }) => {
          const source = await createSource(ctx, body);
          await audit(ctx, { actorUserId: principal.user.id, action: "docs.source_added", details: { slug: source.slug } });
          set.status = 201;
          return { source: sourceView(source, ctx.config.issuer) };
        },
        { auth: { admin: true, scope: CONFIG_WRITE }, parse: "json", body: SourceBody, response: { 201: DocsSourceAnswer } },
      )
      .patch(
        "/api/docs/sources/:id",
        async ({ principal, params, body }) => {
          // The built-in guide is hidden or shown, nothing else (it is part of Cairn).
          if (params.id === GUIDE.id) {
            const guide = await updateGuide(ctx, body);
            const hidden = await guideHidden(ctx);
            await audit(ctx, { actorUserId: principal.user.id, action: hidden ? "docs.guide_hidden" : "docs.guide_shown", details: { slug: guide.slug } });
            return { source: sourceView(guide, ctx.config.issuer, hidden) };
          }
          const source = await updateSource(ctx, params.id, body);
          // Another branch, root or repository: nothing cached for the old one may show.
          await dropSource(ctx, source.id);
          await dropSearch(ctx, source.id);
          await audit(ctx, { actorUserId: principal.user.id, action: "docs.source_changed", details: { slug: source.slug } });
          return { source: sourceView(source, ctx.config.issuer) };
        },
        { auth: { admin: true, scope: CONFIG_WRITE }, parse: "json", body: SourceBody, response: DocsSourceAnswer },
      )
      .delete(
        "/api/docs/sources/:id",
        async ({ principal, params }) => {
          // Removed first: a refusal (the built-in guide) leaves its search index too.
          await deleteSource(ctx, params.id);
          await dropSearch(ctx, params.id);
          await audit(ctx, { actorUserId: principal.user.id, action: "docs.source_removed", details: { id: params.id } });
          return { ok: true as const };
        },
        { auth: { admin: true, scope: CONFIG_WRITE }, response: Ok },
      )
      .post(
        "/api/docs/sources/:id/refresh",
        async ({ params }) => {
          const source = await findSource(ctx, { id: params.id });
          if (!source) throw sourceNotFound();
          const dropped = await dropSource(ctx, source.id);
          await dropSearch(ctx, source.id);
          // Every worker reads a local folder's file list again, not only this one.
          forgetLocalTrees(ctx);
          ctx.cluster.tellOthers(CLUSTER_TOPICS.docsForgetLocalTrees, null);
          return { dropped };
        },
        { auth: { admin: true, scope: CONFIG_WRITE }, response: DocsRefreshed },
      )
      .get("/api/docs/settings", async () => ({ settings: await docsSettingsView(ctx) }), {
        auth: { admin: true, scope: CONFIG_READ },
        response: DocsSettingsAnswer,
      })
      .patch(
        "/api/docs/settings",
        async ({ body }) => {
          await updateDocsSettings(ctx, body);
          return { settings: await docsSettingsView(ctx) };
        },
        {
          auth: { admin: true, scope: CONFIG_WRITE },
          parse: "json",
          response: DocsSettingsAnswer,
          body: t.Object({
            kroki_url: t.Optional(t.String({ maxLength: 500 })),
            translate_url: t.Optional(t.String({ maxLength: 500 })),
            translate_key: t.Optional(t.String({ maxLength: 500 })),
            translate_locales: t.Optional(t.Array(t.String({ maxLength: 16 }), { maxItems: 20 })),
          }),
        },
      )
  );
}
