import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  layout("routes/_site.tsx", [
    index("routes/_site._index.tsx"),
    route("events", "routes/_site.events._index.tsx"),
    route("events/:id", "routes/_site.events.$id.tsx"),
    route("*", "routes/_site.$.tsx"),
  ]),
] satisfies RouteConfig;
