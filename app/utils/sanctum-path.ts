/** Whether an address is the Sanctum's (its pages, and their data requests such as /admin.data). */
export const isSanctumPath = (pathname: string) => pathname === "/admin" || pathname.startsWith("/admin/") || pathname.startsWith("/admin.");
