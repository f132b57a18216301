/**
 * The group's posts that Dwell writes (its announcements), as the community's description of the
 * VRChat API has them: `POST /groups/{groupId}/posts` (CreateGroupPostRequest: title, text,
 * visibility `public` or `group`, sendNotification, roleIds, imageId), `PUT` and `DELETE
 * /groups/{groupId}/posts/{notificationId}`, the posts listed by `GET /groups/{groupId}/posts`, and
 * a picture uploaded by `POST /file/image` (multipart: `file`, the PNG, and `tag`). Never the old
 * `POST /groups/{groupId}/announcement`: it removes every other announcement. Only a post whose id
 * Dwell holds is edited or deleted.
 */
import { z } from "zod";
import { createPacer, type Pacer } from "./vrchat-actions.server";
import type { VRChatClient } from "./vrchat-client.server";

export interface PostBody {
  title: string;
  text: string;
  visibility: "public" | "group";
  sendNotification: boolean;
  roleIds?: string[];
  imageId?: string;
}

const PostSchema = z.object({ id: z.string().min(1).max(200) });
const ListedSchema = z.object({
  posts: z
    .array(z.object({ id: z.string().optional(), title: z.string().optional(), authorId: z.string().optional(), createdAt: z.string().optional() }).nullable())
    .nullish(),
});
const FileSchema = z.object({ id: z.string().min(1).max(200) });

/** The most posts read when looking for one a lost answer may have made. */
const LOOK_BACK = 20;

export function createPostKeeper({ client, groupId, pacer = createPacer(1_000, Date.now) }: { client: VRChatClient; groupId: string; pacer?: Pacer }) {
  const posts = `/groups/${groupId}/posts`;
  const post = (id: string) => `${posts}/${encodeURIComponent(id)}`;
  return {
    groupId,
    async upload(png: Buffer): Promise<string> {
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "announcement.png");
      form.set("tag", "gallery");
      return (await pacer(() => client.sendFor("POST", "/file/image", form, FileSchema))).id;
    },
    async create(body: PostBody): Promise<string> {
      return (await pacer(() => client.sendFor("POST", posts, body, PostSchema))).id;
    },
    async update(id: string, body: PostBody): Promise<void> {
      await pacer(() => client.send("PUT", post(id), body));
    },
    async remove(id: string): Promise<void> {
      await pacer(() => client.send("DELETE", post(id), undefined));
    },
    /**
     * The post a create made without us hearing back: the bot's own, with this title, made since the
     * attempt, and not one Dwell already holds.
     */
    async findMade(title: string, since: Date, known: ReadonlySet<string>): Promise<string | null> {
      const bot = await client.botUserId();
      const listed = await pacer(() => client.get(posts, ListedSchema, { n: LOOK_BACK, offset: 0 }));
      const found = (listed.posts ?? []).find(
        (entry) => entry?.id && !known.has(entry.id) && entry.authorId === bot && entry.title === title && Date.parse(entry.createdAt ?? "") >= since.getTime() - 60_000,
      );
      return found?.id ?? null;
    },
    /** Where a person sees the group's posts on VRChat's website. */
    pageUrl: () => `https://vrchat.com/home/group/${groupId}`,
  };
}

export type PostKeeper = ReturnType<typeof createPostKeeper>;
