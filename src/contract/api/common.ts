import { type Static, type TSchema, Type } from "@sinclair/typebox";

/**
 * One of a fixed list of strings. Typed through Unsafe (still a union of literals at run time):
 * Elysia reads a union built from an array, not a tuple, as `never`.
 */
export const oneOf = <const T extends string>(values: readonly T[]) => Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));
/** The schema's value, or null. */
export const orNull = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);

/** The answer of a write that has nothing else to say. */
export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;

/**
 * WebAuthn request options (PublicKeyCredentialRequestOptionsJSON) as the server's WebAuthn library
 * makes them: only `challenge` is named; every other member is kept as made, never stripped.
 */
export const PasskeyRequestOptions = Type.Object({ challenge: Type.String() }, { additionalProperties: Type.Unknown() });
/** A passkey assertion to ask the browser for (sign-in, second factor, confirmation), and the id to answer it with. */
export const PasskeyChallenge = Type.Object({ challenge_id: Type.String(), options: PasskeyRequestOptions });
export type PasskeyChallenge = Static<typeof PasskeyChallenge>;

/** 204 No Content: the answer has no body. */
export const NoContent = Type.Null();
