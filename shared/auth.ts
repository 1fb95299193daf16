/**
 * @module Bearer-token auth and Origin checks for every route except /health and the chat shell.
 * Tokens are compared in constant time (SHA-256 digests + timingSafeEqual) and never logged.
 */
import type { TokenGrant } from "./config";
import { HttpError } from "./errors";

const encoder = new TextEncoder();

async function digest(s: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(s));
}

/** Constant-time string equality (both sides hashed first, so lengths leak nothing). */
export async function safeEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([digest(a), digest(b)]);
  const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: (x: ArrayBuffer, y: ArrayBuffer) => boolean };
  if (subtle.timingSafeEqual) return subtle.timingSafeEqual(da, db);
  const x = new Uint8Array(da);
  const y = new Uint8Array(db);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

const CHALLENGE = 'Bearer realm="mcp", error="invalid_token"';

/**
 * Check the Authorization header against the configured grants and return the matching grant.
 * Every grant is compared (no early exit), so timing does not reveal which one matched.
 * @throws HttpError 503 when no token is configured (fail closed), 401 with WWW-Authenticate otherwise.
 */
export async function authenticate(
  header: string | null | undefined,
  grants: readonly TokenGrant[],
): Promise<TokenGrant> {
  if (grants.length === 0) {
    throw new HttpError(
      503,
      "This server has no MCP_AUTH_TOKEN configured, so it refuses every request. Set it with `wrangler secret put MCP_AUTH_TOKEN` (or in .dev.vars locally).",
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) {
    throw new HttpError(401, "Missing bearer token: send Authorization: Bearer <token>.", {
      "WWW-Authenticate": 'Bearer realm="mcp"',
    });
  }
  let found: TokenGrant | undefined;
  for (const g of grants) if ((await safeEqual(match[1], g.token)) && !found) found = g;
  if (!found) throw new HttpError(401, "Invalid bearer token.", { "WWW-Authenticate": CHALLENGE });
  return found;
}

/**
 * The families a request may use: the route's family (if any) intersected with the grant's.
 * @throws HttpError 403 when the token does not cover the route's family.
 */
export function scopeFor(grant: TokenGrant, routeFamily?: string): string[] | undefined {
  if (routeFamily) {
    if (grant.families && !grant.families.includes(routeFamily)) {
      throw new HttpError(403, `This token may not use the "${routeFamily}" tools.`);
    }
    return [routeFamily];
  }
  return grant.families;
}

/**
 * DNS-rebinding protection (MCP spec): a request carrying an Origin must come from this server's
 * own origin or one listed in ALLOWED_ORIGINS. Requests without Origin (non-browser clients) pass.
 * @throws HttpError 403 for a foreign Origin.
 */
export function checkOrigin(origin: string | null | undefined, requestUrl: string, allowed: readonly string[]): void {
  if (!origin || isAllowedOrigin(origin, requestUrl, allowed)) return;
  throw new HttpError(
    403,
    `Origin ${origin} is not allowed. Add it to ALLOWED_ORIGINS if this is your own web client.`,
  );
}

/** True for this server's own origin and those listed in ALLOWED_ORIGINS (`*` allows any). */
export function isAllowedOrigin(origin: string, requestUrl: string, allowed: readonly string[]): boolean {
  return origin === new URL(requestUrl).origin || allowed.includes(origin) || allowed.includes("*");
}
