/**
 * The user of an OpenID Connect provider whose ID token (or userinfo answer) carries the standard
 * claims (OIDC Core §5.1): shared by the catalog's deployment-hosted OIDC providers, which differ
 * in where they live, not in what they say of a person.
 */
import type { Profile, User } from "../../types.js";
import { httpsUrl, idOf, joinName, text } from "./shared.js";

/** The standard claims sign-in reads. */
export interface StandardClaims extends Profile {
  sub: string;
  name?: string;
  given_name?: string;
  middle_name?: string;
  family_name?: string;
  nickname?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
}

/**
 * `sub`, a name (`name`, else the given/middle/family names joined, else `preferred_username`,
 * else `nickname`), `email` and an https `picture`.
 */
export function userFromStandardClaims(claims: Record<string, unknown>): User {
  return {
    id: idOf(claims.sub),
    name:
      text(claims.name) ??
      joinName(claims.given_name, claims.middle_name, claims.family_name) ??
      text(claims.preferred_username) ??
      text(claims.nickname),
    email: text(claims.email),
    image: httpsUrl(claims.picture),
  };
}
