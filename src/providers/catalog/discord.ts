/**
 * Sign in with Discord: plain OAuth 2.
 *
 * - Endpoints: `https://discord.com/oauth2/authorize`, `https://discord.com/api/oauth2/token`,
 *   `GET https://discord.com/api/users/@me`. Scope `identify email`.
 * - The image is built from the avatar hash on Discord's CDN (animated hashes start with `a_`);
 *   without an avatar, Discord's default avatar for the account (by user id for new usernames,
 *   by discriminator for legacy `name#1234` ones).
 * - `verified` in the profile says whether the email is verified.
 *
 * @see https://discord.com/developers/docs/topics/oauth2
 * @see https://discord.com/developers/docs/resources/user#user-object
 * @see https://discord.com/developers/docs/reference#image-formatting
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { discordLogo } from "../logos/discord.js";
import { idOf, text, withUserOptions } from "./shared.js";

/** `GET /users/@me`. */
export interface DiscordProfile extends Profile {
  /** A snowflake, as a string. */
  id: string;
  username: string;
  /** `"0"` for accounts that migrated to unique usernames. */
  discriminator?: string;
  /** The display name, when set. */
  global_name?: string | null;
  /** The avatar hash, or `null`. */
  avatar?: string | null;
  bot?: boolean;
  system?: boolean;
  mfa_enabled?: boolean;
  banner?: string | null;
  accent_color?: number | null;
  locale?: string;
  /** Whether the email is verified. */
  verified?: boolean;
  email?: string | null;
  flags?: number;
  premium_type?: number;
  public_flags?: number;
}

const CDN = "https://cdn.discordapp.com";

/** The avatar URL Discord shows for this user: their own, or the default one for the account. */
export function discordAvatarUrl(profile: Pick<DiscordProfile, "id" | "avatar" | "discriminator">): string | null {
  const id = idOf(profile.id);
  if (id === undefined) return null;
  const avatar = text(profile.avatar);
  if (avatar !== null) return `${CDN}/avatars/${id}/${avatar}.${avatar.startsWith("a_") ? "gif" : "png"}`;
  let index: number;
  try {
    index =
      profile.discriminator && profile.discriminator !== "0"
        ? Number.parseInt(profile.discriminator, 10) % 5
        : Number((BigInt(id) >> 22n) % 6n);
  } catch {
    return null;
  }
  return Number.isFinite(index) ? `${CDN}/embed/avatars/${index}.png` : null;
}

/**
 * Discord as a sign-in provider (`AUTH_DISCORD_ID`, `AUTH_DISCORD_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Discord<P extends DiscordProfile = DiscordProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
    token: { url: "https://discord.com/api/oauth2/token" },
    userinfo: { url: "https://discord.com/api/users/@me" },
    // PKCE is not documented by Discord: `state` keeps the callback bound to this browser either way.
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.global_name) ?? text(profile.username),
        email: text(profile.email),
        image: discordAvatarUrl(profile),
      };
    },
    style: { brandColor: "#5865f2", logo: discordLogo },
  };
  return withUserOptions(defaults, options);
}

export { Discord };
