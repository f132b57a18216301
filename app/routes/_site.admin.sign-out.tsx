import { redirect } from "react-router";
import { appContext } from "~/context";
import { isSameOrigin } from "~/utils/admin-guard.server";
import { withAuthCookies } from "~/utils/auth.server";
import type { Route } from "./+types/_site.admin.sign-out";

export function loader() {
  return redirect("/admin");
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth } = context.get(appContext);
  const response = redirect("/admin");
  if (!isSameOrigin(request)) return response;
  const { headers } = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
  withAuthCookies(headers, response.headers);
  return response;
}
