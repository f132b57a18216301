/** Where to go after signing in: a path of this site's Sanctum, never another site. */
export function safeAdminPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/admin") || value.startsWith("//")) return "/admin";
  if (value.startsWith("/admin/sign-") || value.startsWith("/admin/forgot-password")) return "/admin";
  return value;
}
