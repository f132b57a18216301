import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  layout("routes/_site.tsx", [
    index("routes/_site._index.tsx"),
    route("events", "routes/_site.events._index.tsx"),
    route("events/:id", "routes/_site.events.$id.tsx"),
    // One screen for both forms (spec): with an event id it is the event's application form.
    route("events/:id/apply", "routes/_site.apply.tsx", { id: "event-apply" }),
    route("apply", "routes/_site.apply.tsx", { id: "group-apply" }),
    route("*", "routes/_site.$.tsx"),
  ]),
] satisfies RouteConfig;
