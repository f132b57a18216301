import { Sparkles } from "lucide";
import { Icon } from "~/components/ui/icon";
import { m } from "~/paraglide/messages";

const VIDEO_FILE = /\.(mp4|webm|ogv|mov)$/i;

/** A link to a video file (played in a <video>), rather than a page to embed. */
export function isVideoFile(url: string): boolean {
  return VIDEO_FILE.test(new URL(url).pathname);
}

/**
 * The configured video: a file plays in a <video>, anything else (YouTube, Vimeo) is embedded.
 * Without one, the featured event's picture (`picture`), else a quiet frame.
 */
export function HeroVideo({ url, picture = null }: { url: string | null; picture?: { src: string; alt: string } | null }) {
  const frame =
    "aspect-video w-full overflow-hidden rounded-2xl border border-aurora-400/25 bg-night-900 shadow-2xl shadow-aurora-600/20";
  if (!url && picture) {
    return <img className={`${frame} object-cover`} src={picture.src} alt={picture.alt} width={1200} height={675} referrerPolicy="no-referrer" data-testid="hero-picture" />;
  }
  if (!url) {
    return (
      <div className={`${frame} flex items-center justify-center`} aria-hidden="true">
        <Icon node={Sparkles} className="size-16 text-aurora-400/60" />
      </div>
    );
  }
  if (isVideoFile(url)) {
    return (
      <video className={frame} src={url} controls preload="metadata" playsInline>
        <track kind="captions" />
      </video>
    );
  }
  return (
    <iframe
      className={frame}
      src={url}
      title={m.hero_video_title()}
      loading="lazy"
      allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
      referrerPolicy="strict-origin-when-cross-origin"
      allowFullScreen
    />
  );
}
