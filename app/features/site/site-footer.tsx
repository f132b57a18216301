export function SiteFooter() {
  return (
    <footer className="mt-24 border-t border-aurora-400/15 bg-night-950/60">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-2 px-6 py-10 text-center">
        <p className="font-display text-lg tracking-[0.2em] text-mist-100">DWELL</p>
        <p className="text-sm text-mist-400">
          Custom-made for the Dwellers community by its creator, with care.
        </p>
      </div>
    </footer>
  );
}
