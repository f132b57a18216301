import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  // Calendar files: the feed of the events, and one event's.
  route("events.ics", "routes/events[.]ics.tsx"),
  route("events/:id/calendar.ics", "routes/events.$id.calendar[.]ics.tsx"),
  // An event's picture for link previews.
  route("events/:id/card.jpg", "routes/events.$id.card[.]jpg.tsx"),
  // An announcement's picture: the staff's (any announcement), and the public one (as its page).
  route("admin/announcements/:id/picture", "routes/admin.announcements.$id.picture.tsx"),
  route("news/:id/picture", "routes/news.$id.picture.tsx"),
  // The news as an Atom feed.
  route("news.atom", "routes/news[.]atom.tsx"),
  // The footer's choice of language (a form's target; it has no page).
  route("language", "routes/language.tsx"),
  layout("routes/_site.tsx", [
    index("routes/_site._index.tsx"),
    route("events", "routes/_site.events._index.tsx"),
    route("events/:id", "routes/_site.events.$id.tsx"),
    route("news", "routes/_site.news._index.tsx"),
    route("news/:id", "routes/_site.news.$id.tsx"),
    // One screen for both forms (spec): with an event id it is the event's application form.
    route("events/:id/apply", "routes/_site.apply.tsx", { id: "event-apply" }),
    route("apply", "routes/_site.apply.tsx", { id: "group-apply" }),
    // The applicant's private link to their application's status.
    route("applications/status/:token", "routes/_site.applications.status.$token.tsx"),
    route("applications/status/:token/edit", "routes/_site.applications.status.$token.edit.tsx"),
    // "How was it?": an attendee's personal, signed link to rate the event.
    route("rate/:token", "routes/_site.rate.$token.tsx"),
    // Discord's sign-in, for an applicant to link their own Discord account (started on the status page).
    route("applications/discord-link", "routes/_site.applications.discord-link.tsx"),

    // Outside the admin guard: signing in and out, and renewing a forgotten passphrase.
    ...prefix("admin", [
      route("sign-in", "routes/_site.admin.sign-in.tsx"),
      // A fresh install's first owner, made with the setup code from the server's log.
      route("setup", "routes/_site.admin.setup.tsx"),
      route("two-factor", "routes/_site.admin.two-factor.tsx"),
      route("sign-out", "routes/_site.admin.sign-out.tsx"),
      route("forgot-password", "routes/_site.admin.forgot-password.tsx"),
      route("reset-password", "routes/_site.admin.reset-password.tsx"),
      // An owner's invitation to the team: a single-use link.
      route("join/:token", "routes/_site.admin.join.$token.tsx"),
    ]),
    route("admin", "routes/_site.admin.tsx", [
      index("routes/_site.admin._index.tsx"),
      route("security", "routes/_site.admin.security.tsx"),
      route("team", "routes/_site.admin.team.tsx"),
      // Discord's sign-in, for a staff member to link their own Discord account.
      route("discord-link", "routes/_site.admin.discord-link.tsx"),
      route("events", "routes/_site.admin.events.tsx"),
      // How an event's evening went: who was in its instance, the figures, what the guests thought.
      route("events/:eventId/evening", "routes/_site.admin.events.$eventId.evening.tsx"),
      // Announcements: written once, published on the site, in VRChat and in Discord.
      route("announcements", "routes/_site.admin.announcements._index.tsx"),
      route("announcements/new", "routes/_site.admin.announcements.new.tsx"),
      route("announcements/:id", "routes/_site.admin.announcements.$id.tsx"),
      // One editor for both kinds of questions: an event's, and the group's.
      route("events/:eventId/questions", "routes/_site.admin.questions.tsx", { id: "event-questions" }),
      route("questions", "routes/_site.admin.questions.tsx", { id: "group-questions" }),
      // The group's screening rules (owners and admins).
      route("screening", "routes/_site.admin.screening.tsx"),
      // The group's join requests made in VRChat.
      route("join-requests", "routes/_site.admin.join-requests.tsx"),
      // The group's one ban list (VRChat's, Discord's and the site's).
      route("bans", "routes/_site.admin.bans.tsx"),
      // One moderation history (VRChat's, Discord's and Dwell's acts), its CSV, and the tripwire.
      route("moderation", "routes/_site.admin.moderation.tsx"),
      route("moderation/export", "routes/_site.admin.moderation.export.tsx"),
      // VRChat's and Discord's roles kept in step (the role bridge).
      route("roles", "routes/_site.admin.roles.tsx"),
      // The connections (VRChat, Discord, Telegram, Google Sheets, e-mail), and what works with them (owners).
      route("connections", "routes/_site.admin.connections.tsx"),
      // Everything Dwell knows of one person, and the search that finds them.
      route("people", "routes/_site.admin.people._index.tsx"),
      route("people/:key", "routes/_site.admin.people.$key.tsx"),
      // One review screen for both kinds of applications, and their CSV exports.
      route("events/:eventId/applications", "routes/_site.admin.applications.tsx", { id: "event-applications" }),
      route("applications", "routes/_site.admin.applications.tsx", { id: "group-applications" }),
      route("applications/approval-preview", "routes/_site.admin.applications.approval-preview.tsx"),
      route("applications/:applicationId/vrchat", "routes/_site.admin.applications.$applicationId.vrchat.tsx", { id: "group-application-vrchat" }),
      route("events/:eventId/applications/:applicationId/vrchat", "routes/_site.admin.applications.$applicationId.vrchat.tsx", {
        id: "event-application-vrchat",
      }),
      route("applications/:applicationId/discord", "routes/_site.admin.applications.$applicationId.discord.tsx", { id: "group-application-discord" }),
      route("events/:eventId/applications/:applicationId/discord", "routes/_site.admin.applications.$applicationId.discord.tsx", {
        id: "event-application-discord",
      }),
      route("events/:eventId/applications/export", "routes/_site.admin.applications.export.tsx", { id: "event-applications-export" }),
      route("applications/export", "routes/_site.admin.applications.export.tsx", { id: "group-applications-export" }),
      // What applicants read once decided: the group's and every event's, or one event's.
      route("events/:eventId/messages", "routes/_site.admin.messages.tsx", { id: "event-messages" }),
      route("messages", "routes/_site.admin.messages.tsx", { id: "group-messages" }),
    ]),

    route("*", "routes/_site.$.tsx"),
  ]),
] satisfies RouteConfig;
