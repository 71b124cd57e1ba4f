/**
 * Finds module-level mutable state in TypeScript sources, through the TypeScript compiler's own
 * parser and checker (typescript 7's API, which runs the native compiler beside this process).
 * Module state is shared by every app a process builds (tests build many) and by every request;
 * what is per app belongs in the context built at boot, what is per call in a local.
 *
 * Reported: a top-level `let` or `var`; a top-level `const` holding a Map, Set, WeakMap, WeakSet,
 * array or object literal that code running after load mutates (a mutating method, an assignment
 * to a member, `delete`, Object.assign), in its own file or through an import; a top-level regular
 * expression with the `g` or `y` flag that code uses statefully (`exec`, `test`, `lastIndex`);
 * an instance of any other class made at module level; a static class field that is not readonly.
 * Filling a table while the module loads (a loop at the top level) is not state: only mutations
 * inside a function, method or instance field count. A value that escapes into a call that
 * mutates it is not seen: such code also reads as state to a reviewer, and should not pass one.
 */
import { API } from "typescript/unstable/async";
import { type Node, NodeFlags, type SourceFile, SyntaxKind } from "typescript/unstable/ast";
import type { FileSystem } from "typescript/unstable/fs";

export type Offender = { file: string; line: number; name: string; reason: string };

/** Methods of Map, Set, WeakMap, WeakSet and Array that change the receiver. */
const MUTATORS = new Set(["set", "add", "delete", "clear", "push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"]);
/** Calls that change their first argument. */
const MUTATING_CALLS = new Set([
  "Object.assign",
  "Object.defineProperty",
  "Object.defineProperties",
  "Object.setPrototypeOf",
  "Reflect.set",
  "Reflect.deleteProperty",
  "Reflect.defineProperty",
]);
const COLLECTIONS = new Set(["Map", "Set", "WeakMap", "WeakSet", "Array"]);
/** Classes whose instances keep nothing between calls (a TextDecoder without `stream`, Intl formatters). */
const STATELESS = (name: string) => name === "TextDecoder" || name === "TextEncoder" || name.startsWith("Intl.");
const ASSIGNMENTS = new Set([
  SyntaxKind.EqualsToken,
  SyntaxKind.PlusEqualsToken,
  SyntaxKind.MinusEqualsToken,
  SyntaxKind.AsteriskEqualsToken,
  SyntaxKind.SlashEqualsToken,
  SyntaxKind.PercentEqualsToken,
  SyntaxKind.AsteriskAsteriskEqualsToken,
  SyntaxKind.LessThanLessThanEqualsToken,
  SyntaxKind.GreaterThanGreaterThanEqualsToken,
  SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken,
  SyntaxKind.AmpersandEqualsToken,
  SyntaxKind.BarEqualsToken,
  SyntaxKind.CaretEqualsToken,
  SyntaxKind.BarBarEqualsToken,
  SyntaxKind.AmpersandAmpersandEqualsToken,
  SyntaxKind.QuestionQuestionEqualsToken,
]);
const RUNTIME_SCOPES = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);
const WRAPPERS = new Set([
  SyntaxKind.ParenthesizedExpression,
  SyntaxKind.AsExpression,
  SyntaxKind.SatisfiesExpression,
  SyntaxKind.NonNullExpression,
  SyntaxKind.TypeAssertionExpression,
]);

// The AST's node types are a union per kind; this reads the few members used here by name.
type AnyNode = Node & Record<string, any>;

/** A top-level const that is state only if something mutates it after load. */
type Candidate = { offender: Offender; kind: "collection" | "regex" };

const unwrap = (node: AnyNode): AnyNode => (WRAPPERS.has(node.kind) ? unwrap(node.expression) : node);
const hasModifier = (node: AnyNode, kind: SyntaxKind) => (node.modifiers ?? []).some((m: Node) => m.kind === kind);
const statefulFlags = (flags: string) => /[gy]/.test(flags);

/** Runs after the module has loaded: inside a function, or an instance field's initializer. */
function atRunTime(node: AnyNode): boolean {
  for (let at: AnyNode | undefined = node.parent; at; at = at.parent) {
    if (RUNTIME_SCOPES.has(at.kind)) return true;
    if (at.kind === SyntaxKind.PropertyDeclaration && !hasModifier(at, SyntaxKind.StaticKeyword)) return true;
  }
  return false;
}

/** Whether this use of a candidate changes it: a mutating method anywhere along its member chain, or an assignment to a member. */
function mutates(use: AnyNode, kind: Candidate["kind"]): boolean {
  let node = use;
  let members = 0;
  for (;;) {
    const parent = node.parent as AnyNode;
    if (WRAPPERS.has(parent.kind)) node = parent;
    else if ((parent.kind === SyntaxKind.PropertyAccessExpression || parent.kind === SyntaxKind.ElementAccessExpression) && parent.expression === node) {
      const name = parent.kind === SyntaxKind.PropertyAccessExpression ? parent.name.text : null;
      const call = parent.parent as AnyNode;
      const called = call.kind === SyntaxKind.CallExpression && call.expression === parent;
      if (kind === "regex") return name === "lastIndex" || (called && (name === "exec" || name === "test"));
      if (called && name !== null && MUTATORS.has(name)) return true;
      // A Map's entry is the table's state too (`cache.get(key).push(...)`).
      node = called && name === "get" ? call : parent;
      members++;
    } else break;
  }
  if (kind === "regex") return false;
  const parent = node.parent as AnyNode;
  if (members > 0) {
    if (parent.kind === SyntaxKind.BinaryExpression && parent.left === node && ASSIGNMENTS.has(parent.operatorToken.kind)) return true;
    if (parent.kind === SyntaxKind.DeleteExpression) return true;
    const step = parent.kind === SyntaxKind.PrefixUnaryExpression || parent.kind === SyntaxKind.PostfixUnaryExpression;
    if (step && (parent.operator === SyntaxKind.PlusPlusToken || parent.operator === SyntaxKind.MinusMinusToken)) return true;
  }
  return parent.kind === SyntaxKind.CallExpression && parent.arguments[0] === node && MUTATING_CALLS.has(parent.expression.getText());
}

/** Top-level declarations of one file: offenders found by their form alone, and candidates. */
function declarationsOf(sf: SourceFile, file: string, offenders: Offender[], candidates: Map<AnyNode, Candidate>): void {
  const at = (node: AnyNode, name: string, reason: string): Offender => ({
    file,
    line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
    name,
    reason,
  });
  for (const statement of sf.statements as readonly AnyNode[]) {
    if (statement.kind === SyntaxKind.ClassDeclaration) {
      for (const member of statement.members as AnyNode[]) {
        if (member.kind !== SyntaxKind.PropertyDeclaration || !hasModifier(member, SyntaxKind.StaticKeyword)) continue;
        if (!hasModifier(member, SyntaxKind.ReadonlyKeyword))
          offenders.push(at(member, `${statement.name?.text ?? "class"}.${member.name.getText(sf)}`, "static field that is not readonly"));
      }
      continue;
    }
    if (statement.kind !== SyntaxKind.VariableStatement || hasModifier(statement, SyntaxKind.DeclareKeyword)) continue;
    const list = statement.declarationList as AnyNode;
    // `await using` sets the Const flag too.
    const constant = (list.flags & NodeFlags.BlockScoped) === NodeFlags.Const;
    const keyword = (list.flags & NodeFlags.Using) !== 0 ? "using" : (list.flags & NodeFlags.Let) !== 0 ? "let" : "var";
    for (const declaration of list.declarations as AnyNode[]) {
      const name = declaration.name.getText(sf);
      if (!constant) {
        offenders.push(at(declaration, name, `top-level ${keyword}`));
        continue;
      }
      if (!declaration.initializer || declaration.name.kind !== SyntaxKind.Identifier) continue;
      const value = unwrap(declaration.initializer);
      if (value.kind === SyntaxKind.ArrayLiteralExpression || value.kind === SyntaxKind.ObjectLiteralExpression) {
        candidates.set(declaration, { offender: at(declaration, name, "array or object literal mutated after load"), kind: "collection" });
      } else if (value.kind === SyntaxKind.RegularExpressionLiteral) {
        const flags = value.text.slice(value.text.lastIndexOf("/") + 1);
        if (statefulFlags(flags))
          candidates.set(declaration, { offender: at(declaration, name, `/${flags} regular expression used statefully`), kind: "regex" });
      } else if (value.kind === SyntaxKind.NewExpression) {
        const type = value.expression.getText(sf);
        const flags = value.arguments?.[1];
        if (COLLECTIONS.has(type)) candidates.set(declaration, { offender: at(declaration, name, `${type} mutated after load`), kind: "collection" });
        else if (type === "RegExp") {
          // Flags that are not a literal may hold g or y.
          if (!flags || flags.kind !== SyntaxKind.StringLiteral || statefulFlags(flags.text))
            candidates.set(declaration, { offender: at(declaration, name, "RegExp used statefully"), kind: "regex" });
        } else if (!STATELESS(type)) offenders.push(at(declaration, name, `module-level instance of ${type}`));
      }
    }
  }
}

const handleKey = (handle: { path: string; index: number } | undefined) => (handle ? `${handle.path}#${handle.index}` : "");

/**
 * Module state in `files` (absolute paths, all in the project of `tsconfig`), with file names
 * relative to `root`, in file and line order.
 */
export async function findModuleState(options: { root: string; tsconfig: string; files: string[]; fs?: FileSystem }): Promise<Offender[]> {
  const api = new API({ cwd: options.root, ...(options.fs ? { fs: options.fs } : {}) });
  try {
    const snapshot = await api.updateSnapshot({ openProjects: [options.tsconfig] });
    const project = snapshot.getProject(options.tsconfig) ?? snapshot.getProjects()[0];
    if (!project) throw new Error(`no project for ${options.tsconfig}`);
    const sources: [string, SourceFile][] = [];
    for (const path of options.files) {
      const sf = await project.program.getSourceFile(path);
      if (!sf) throw new Error(`${path} is not in the project of ${options.tsconfig}`);
      sources.push([path.slice(options.root.length + 1), sf]);
    }
    const offenders: Offender[] = [];
    const declared = new Map<AnyNode, Candidate>();
    for (const [file, sf] of sources) declarationsOf(sf, file, offenders, declared);

    // Candidates by their declaration, as the checker names it, so that uses through imports (renamed or not) are found.
    const names = new Set<string>();
    const byDeclaration = new Map<string, Candidate>();
    const declarations = [...declared.keys()];
    const symbols = declarations.length ? await project.checker.getSymbolAtLocation(declarations.map((d) => d.name)) : [];
    declarations.forEach((d, i) => {
      byDeclaration.set(handleKey(symbols[i]?.valueDeclaration), declared.get(d) as Candidate);
      names.add(d.name.text);
    });
    const aliased = new Map<number, string>();
    const found = new Set<Candidate>();
    for (const [, sf] of sources) {
      // Every identifier that may name a candidate: its own name, or a local name it was imported under.
      const local = new Set(names);
      const uses: AnyNode[] = [];
      const visit = (node: AnyNode) => {
        if (node.kind === SyntaxKind.ImportSpecifier && names.has((node.propertyName ?? node.name).text)) local.add(node.name.text);
        node.forEachChild(visit);
      };
      visit(sf as AnyNode);
      const collect = (node: AnyNode) => {
        if (node.kind === SyntaxKind.Identifier && local.has(node.text) && atRunTime(node)) uses.push(node);
        node.forEachChild(collect);
      };
      collect(sf as AnyNode);
      if (uses.length === 0) continue;
      const resolved = await project.checker.getSymbolAtLocation(uses);
      for (const [i, use] of uses.entries()) {
        const symbol = resolved[i];
        if (!symbol) continue;
        let key = handleKey(symbol.valueDeclaration);
        if (!byDeclaration.has(key) && symbol.declarations.some((d) => d.kind === SyntaxKind.ImportSpecifier || d.kind === SyntaxKind.NamespaceImport)) {
          if (!aliased.has(symbol.id)) aliased.set(symbol.id, handleKey((await project.checker.getAliasedSymbol(symbol)).valueDeclaration));
          key = aliased.get(symbol.id) as string;
        }
        const candidate = byDeclaration.get(key);
        if (!candidate || found.has(candidate)) continue;
        // `ns.x` of `import * as ns`: the use is the member access.
        const parent = use.parent as AnyNode;
        const node = parent.kind === SyntaxKind.PropertyAccessExpression && parent.name === use ? parent : use;
        if (mutates(node, candidate.kind)) found.add(candidate);
      }
    }
    offenders.push(...[...found].map((c) => c.offender));
    return offenders.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  } finally {
    await api.close();
  }
}
